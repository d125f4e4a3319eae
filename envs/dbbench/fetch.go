package dbbench

import "github.com/memharness/memharness/datasets/fetch"

// FetchSpec describes the official task file for `bench data fetch`: the
// 500-task db_bench split LifeMem uses, as stored in ivowang/PoA (MIT), a
// derivative of LifelongAgentBench, pinned to a commit. The original
// dataset (Hugging Face csyq/LifelongAgentBench) states no licence.
//
// The SHA-256 and size were computed from the copy in shared/fixtures,
// which was taken from that commit; no published digest exists to check
// them against.
func FetchSpec() fetch.Spec {
	return fetch.Spec{
		Name: Name,
		URL: "https://raw.githubusercontent.com/ivowang/PoA/de7135fccaa4379cb0bd348e9e3b8a7895ab7c76/" +
			"data/v0303/db_bench/processed/v0317_first500/entry_dict.json",
		SHA256:   "4fb6441aa454ff6edab54a5971046054fda57ea78d362138a82be7b7eeb5f656",
		Size:     2558507,
		FileName: DataFile,
	}
}
