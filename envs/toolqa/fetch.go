package toolqa

import "github.com/memharness/memharness/datasets/fetch"

// Upstream commits the files are pinned to.
const (
	toolqaCommit  = "acf55534d6dcd81df84df7b5d01ebdd14508367a" // night-chen/ToolQA
	lifememCommit = "15452cf8de088d2f9aa0e68e1c8c6ed871608b5e" // BITHLP/LifeMem
	csvCommit     = "558a626cd6705e353efa814400d16618560a8b19" // Hanifanta/Data-Time-Series_Coffee-Price
)

// FetchSpec lists the official downloads, saved under the file names Open
// reads. ToolQA's own copy of the CSV sits in its external corpus on Google
// Drive (no stable file URL), so the CSV comes from a GitHub copy of the same
// Kaggle data set whose content matches ToolQA's answers.
//
// The ToolQA and CSV pins are the SHA-256 of the fixture copies, whose
// lengths and last lines match the upstream files at the pinned commits.
// LifeMem's test file is pinned by the bytes of our transcribed copy less
// its final newline: the upstream file at the pinned commit, as the public
// code index stores it, has the same 80 records and 11,677 bytes with no
// final newline. The index keeps final newlines (ToolQA's coffee-easy.jsonl
// reads back 12,930 bytes ending in one, as its pinned size says), so the
// missing one is the upstream file's. The pin was not checked against a
// download from this machine; a mismatch fails the fetch by name.
func FetchSpec() []fetch.Spec {
	gh := func(repo, commit, path string) string {
		return "https://raw.githubusercontent.com/" + repo + "/" + commit + "/" + path
	}
	return []fetch.Spec{
		{
			Name:     Name,
			URL:      gh("night-chen/ToolQA", toolqaCommit, "data/questions/easy/coffee-easy.jsonl"),
			SHA256:   "a79b132c1c2f802efcc149713babc0dbbbfeff76e365eb187c02209ce85e4dc7",
			Size:     12930,
			FileName: EasyFile,
		},
		{
			Name:     Name,
			URL:      gh("night-chen/ToolQA", toolqaCommit, "data/questions/hard/coffee-hard.jsonl"),
			SHA256:   "b77e1a6adacdb99eb1b25e045f7976f74b83780fa75c481439913941376c8f53",
			Size:     19502,
			FileName: HardFile,
		},
		{
			Name:     Name,
			URL:      gh("Hanifanta/Data-Time-Series_Coffee-Price", csvCommit, "coffee.csv"),
			SHA256:   "c998215bd197900aaa3ff75fa4b16dff314202cabd9e91f13baeff781a56703d",
			Size:     253808,
			FileName: CSVFile,
		},
		{
			Name:     Name,
			URL:      gh("BITHLP/LifeMem", lifememCommit, "ToolQA/data/questions/test_coffee_sql.jsonl"),
			SHA256:   "b7a7becd102087a8d7c21fc39f79776c3f50d45f218eb13e1eb3eb66695f8200",
			GitBlob:  "a5b1ddf8df42ed5bac07f93f84836ccc6d0e13d3",
			Size:     11677,
			FileName: LifeMemFile,
		},
	}
}
