package miniwob

import "github.com/memharness/memharness/datasets/fetch"

// Upstream release the task pages are taken from.
const (
	upstreamRepo   = "Farama-Foundation/miniwob-plusplus"
	upstreamTag    = "v1.0"
	upstreamCommit = "553daee55ea0b2cc32b181a474083ab4cad782a1" // what the tag names
)

// upstreamFile is one pinned file of the release tree.
type upstreamFile struct {
	path   string // below the repository root
	sha256 string
	size   int64
}

// FetchSpec describes the official files for `bench data fetch miniwob`:
// every page, script, style and image below miniwob/html/ of the v1.0 tree,
// each downloaded on its own from GitHub's raw file host at the tag's commit
// and checked against its own SHA-256 and size. GitHub's generated archives
// of a tag are not byte-stable (their compression changes), but the files
// in the tree are, so the pins are per file and a changed file is refused by
// name. The files land in the repository's own layout below the data
// folder (miniwob/html/miniwob/*.html, ...), which is what Open takes.
func FetchSpec() []fetch.Spec {
	files := upstreamFiles()
	specs := make([]fetch.Spec, len(files))
	for i, f := range files {
		specs[i] = fetch.Spec{
			Name:     Name,
			URL:      "https://raw.githubusercontent.com/" + upstreamRepo + "/" + upstreamCommit + "/" + f.path,
			SHA256:   f.sha256,
			Size:     f.size,
			FileName: f.path,
		}
	}
	return specs
}
