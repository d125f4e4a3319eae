package miniwob

import "github.com/memharness/memharness/datasets/fetch"

// Upstream release the task pages are taken from.
const (
	upstreamRepo = "Farama-Foundation/miniwob-plusplus"
	upstreamTag  = "v1.0"
)

// FetchSpec describes the official download for `bench data fetch miniwob`:
// the MiniWoB++ release archive from GitHub. Unpacked, its top folder
// (miniwob-plusplus-1.0/, pages in miniwob/html/miniwob/) is what Open takes.
//
// No SHA-256 pin is given: none could be found published or in any stored
// copy, and GitHub's generated archives are not byte-stable, so fetch refuses
// the file until someone pins it from a real download.
func FetchSpec() []fetch.Spec {
	return []fetch.Spec{{
		Name:     Name,
		URL:      "https://github.com/" + upstreamRepo + "/archive/refs/tags/" + upstreamTag + ".tar.gz",
		FileName: "miniwob-plusplus-1.0.tar.gz",
	}}
}
