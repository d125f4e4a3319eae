// Package pramemrel reads the PraMem authors' release (a "release pack")
// from a user's copy: it checks every file against the SHA-256 pinned here,
// pulls the prompt texts out of the Python source with internal/pysrc
// (never running it), and turns them into the harness's named prompt
// templates, assembled in the release's order with its formatting logic.
//
// The authors' sentences are never part of this repository; only their
// location (file, function, variable name) and the shape of the code that
// joins them are.
package pramemrel

import (
	"github.com/memharness/memharness/datasets/fetch"
)

// Repository and Commit pin the release the harness reads.
const (
	Repository = "github.com/icip-cas/PraMem"
	Commit     = "7dea11e52adb137c986c7bad1462e452efcf3c2f"
	// rawBase is where raw files of that commit are served.
	rawBase = "https://raw.githubusercontent.com/icip-cas/PraMem/" + Commit + "/"
	// FetchName is the `bench data fetch` name of the pack.
	FetchName = "pramem-release"
)

// File is one pinned file of the release, by its path in the repository.
type File struct {
	Path   string
	SHA256 string
	Size   int64
}

// Files are the release files the pack needs, with their digests at Commit
// (read from a fetched copy of the repository).
var Files = []File{
	{"prompt_builder.py", "287609384b254d53c6233d1d61abff1a186e62b0a7ed607de6d3919ddff58b8b", 103850},
	{"utils/prompts.py", "fd202d7023790917be703e5a3a65e41dcb38a603773e94b0319ff0dfed5e9043", 25159},
	{"config.py", "3f9430890ef6ed2b4a798a7fac9afc331014cdfd5ad82a5e45905c286047d1fe", 10038},
	{"history_processor.py", "8f6c812672f19ba416587d9b389dcef3c054ca74a1dc8bb892effacf694368c1", 8757},
	{"z_1_get_practice_source.py", "1866883a3c112eb196a26faa39ad77dc63bb705d8e327c57d231e31c31531eb1", 7222},
	{"z_2_get_practice_data.py", "1804b22035f2c49d31c82eda9c0b170315a76027f9e4a98450bf5082d7b22e2a", 7168},
	{"z_5_practice_with_self_check.py", "dd27496e6c00f8096864c7189611ab2ae49003fe2a21f0f0dd9f39ff356ad8d9", 27410},
	{"utils/use_my_api.py", "5bdca5bc3670516141a247f699cfac03344981555f75a35345083bd79724bdf1", 1091},
	// evaluator.py places the memory block after the question prompt.
	{"evaluator.py", "4cfba53a141cdd84c35a7d155f154f300beb27318e529aa95b3d07326e992813", 146896},
}

// Specs are the download specs of Files below base (a URL prefix ending in
// "/"; "" means the raw files of Commit on GitHub). FileName keeps the
// repository layout, so the fetched folder reads like a checkout.
func Specs(base string) []fetch.Spec { return SpecsFor(base, Files) }

// SpecsFor is Specs for other pins (tests serve stand-in files).
func SpecsFor(base string, pins []File) []fetch.Spec {
	if base == "" {
		base = rawBase
	}
	out := make([]fetch.Spec, len(pins))
	for i, f := range pins {
		out[i] = fetch.Spec{Name: FetchName, URL: base + f.Path, SHA256: f.SHA256, Size: f.Size, FileName: f.Path}
	}
	return out
}
