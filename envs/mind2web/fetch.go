package mind2web

import "github.com/memharness/memharness/datasets/fetch"

// Revision is the Hugging Face dataset revision of osunlp/Mind2Web the
// pins below belong to.
const Revision = "17ece8eb89862368edc0cc806acee6fca5163474"

// TestZipPassword opens test.zip: the authors encrypt the test splits
// (ZipCrypto) to keep them out of web crawls and publish the password.
const TestZipPassword = "mind2web"

const hfBase = "https://huggingface.co/datasets/osunlp/Mind2Web/resolve/" + Revision + "/"

// FetchSpec describes the official download: test.zip (test_task/,
// test_website/, test_domain/ with test_task_0..2.json the cross-task
// split) and scores_all_data.pkl (the candidate ranker's scores and ranks,
// to be converted to ScoresFile). Sizes and SHA-256 are the Git LFS
// object ids Hugging Face lists for that revision.
func FetchSpec() []fetch.Spec {
	return []fetch.Spec{
		{
			Name:     "mind2web",
			URL:      hfBase + "test.zip",
			SHA256:   "8f5fbe72afab942fe97cdf7fb397e179885d89b5c16862288e9a14bc6d41ca89",
			Size:     567745122,
			FileName: "mind2web-test.zip",
		},
		{
			Name:     "mind2web-scores",
			URL:      hfBase + "scores_all_data.pkl",
			SHA256:   "884c97cd9ae0544485d21ea39e0d46422aee0291969a7324e56df3a84466dbd7",
			Size:     245190981,
			FileName: "scores_all_data.pkl",
		},
	}
}
