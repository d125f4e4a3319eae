package webshop

import "github.com/memharness/memharness/datasets/fetch"

// Upstream commits of the GitHub-hosted files.
const (
	expelCommit    = "e41ec9a24823e7b560c561ab191441b56d9bcefc" // LeapLabTHU/ExpeL
	agentgymCommit = "3ef9235d23e68e7c2920c5422ad957dc8ced5c6c" // WooooDyy/AgentGym (vendored WebShop)
)

// FetchSpec lists the official downloads for `bench data fetch webshop`,
// saved under the names Open reads.
//
// Every file comes from GitHub at a fixed commit. The small catalogue
// (items_shuffle_1000.json, which the reference's setup.sh takes from
// Google Drive) is committed in AgentGym's vendored WebShop, and is pinned
// by its git blob id at that commit (the id the repository's tree lists;
// fetch checks it over the downloaded bytes). The other files are pinned
// by the SHA-256 of the fixture copies, whose sizes match the upstream
// files; items_ins_v2_1000.json also by its blob id, which those bytes
// give. AgentGym's items_human_ins.json (blob
// b2ab7479b9798e0b62ea394e065f3d506875f090) is not fetched: Open reads no
// goal attributes from it.
func FetchSpec() []fetch.Spec {
	gh := func(repo, commit, path string) string {
		return "https://raw.githubusercontent.com/" + repo + "/" + commit + "/" + path
	}
	return []fetch.Spec{
		{
			Name:     Name,
			URL:      gh("WooooDyy/AgentGym", agentgymCommit, "agentenv-webshop/webshop/data/items_shuffle_1000.json"),
			GitBlob:  "08dfda9a1c896e0f69d50e3437dd3fe94419b7d7",
			FileName: CatalogueFile,
		},
		{
			Name:     Name,
			URL:      gh("WooooDyy/AgentGym", agentgymCommit, "agentenv-webshop/webshop/data/items_ins_v2_1000.json"),
			SHA256:   "f88a36314a397b53b3d9c3fa5878e5f7b26d35019a51ec83fbedeca61a948f6f",
			GitBlob:  "22837ad99f3173712fc9cb1cce7de6b75fe90595",
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
