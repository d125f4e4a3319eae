package webshop

import "github.com/memharness/memharness/datasets/fetch"

// Upstream commits of the GitHub-hosted files.
const (
	expelCommit    = "e41ec9a24823e7b560c561ab191441b56d9bcefc" // LeapLabTHU/ExpeL
	agentgymCommit = "3ef9235d23e68e7c2920c5422ad957dc8ced5c6c" // WooooDyy/AgentGym (vendored WebShop)
)

// Google Drive file ID of the catalogue in the reference's setup.sh ("-d small").
const (
	driveCatalogue1000 = "1EgHdxQ_YxqIQlvvq5iKlCrkEKR6-j0Ib" // items_shuffle_1000.json
)

// FetchSpec lists the official downloads for `bench data fetch webshop`,
// saved under the names Open reads.
//
// The GitHub files (ExpeL's fixed100 goals; AgentGym's vendored copies of
// items_ins_v2_1000.json and human_goals.json) are pinned by the SHA-256
// of the fixture copies, whose sizes match the upstream files. The
// catalogue lives only on Google Drive (princeton-nlp/WebShop setup.sh);
// no published SHA-256 exists and none could be found, so it has no pin
// and fetch refuses it until someone pins it from a real download (the
// file can also be placed in the data directory by hand).
func FetchSpec() []fetch.Spec {
	gh := func(repo, commit, path string) string {
		return "https://raw.githubusercontent.com/" + repo + "/" + commit + "/" + path
	}
	return []fetch.Spec{
		{
			Name:     Name,
			URL:      "https://drive.google.com/uc?export=download&id=" + driveCatalogue1000,
			FileName: CatalogueFile,
		},
		{
			Name:     Name,
			URL:      gh("WooooDyy/AgentGym", agentgymCommit, "agentenv-webshop/webshop/data/items_ins_v2_1000.json"),
			SHA256:   "f88a36314a397b53b3d9c3fa5878e5f7b26d35019a51ec83fbedeca61a948f6f",
			Size:     147099,
			FileName: AttributesFile,
		},
		{
			Name:     Name,
			URL:      gh("LeapLabTHU/ExpeL", expelCommit, "data/webshop/webshop.fixed100.json"),
			SHA256:   "5a46d7690fcc0cd8b5f3a3e28165ee7c8a3053e62c8a8e43534d057f71c60887",
			Size:     52818,
			FileName: ExpeLGoalsFile,
		},
		{
			Name:     Name,
			URL:      gh("WooooDyy/AgentGym", agentgymCommit, "agentenv-webshop/webshop/baseline_models/data/human_goals.json"),
			SHA256:   "b68746ed66cd31fdc5f70eb3f5831a46b38163563b57a66ddcab8fd60ee0cbdc",
			Size:     999419,
			FileName: HumanGoalsFile,
		},
	}
}
