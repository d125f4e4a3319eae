package wikienv

import (
	"fmt"

	"github.com/memharness/memharness/datasets/fetch"
)

// FetchSpecs describes the official downloads for `bench data fetch NAME`.
//
// hotpotqa: the official dev-distractor release (7,405 questions, context
// paragraphs included), pinned as ParlAI pins it (parlai/tasks/hotpotqa).
// The 100-question hard sample ExpeL uses ships only as a pandas joblib
// pickle, which Go cannot read; OpenHotpotQA reads the JSONL conversion or
// this file.
//
// fever: paper_dev.jsonl (9,999 claims). Its SHA-256 is the one third-party
// download scripts pin for fever.ai and equals that of the copy in
// LeapLabTHU/ExpeL data/fever (the test fixture).
//
// The FEVER wiki-pages dump is not listed here (1.7 GB): see FEVERWikiPages.
func FetchSpecs(name string) ([]fetch.Spec, error) {
	switch name {
	case NameHotpotQA:
		return []fetch.Spec{{
			Name:     NameHotpotQA,
			URL:      "http://curtis.ml.cmu.edu/datasets/hotpot/hotpot_dev_distractor_v1.json",
			SHA256:   "4e9ecb5c8d3b719f624d66b60f8d56bf227f03914f5f0753d6fa1b359d7104ea",
			Size:     46320117,
			FileName: "hotpot_dev_distractor_v1.json",
		}}, nil
	case NameFEVER:
		return []fetch.Spec{{
			Name:     NameFEVER,
			URL:      "https://fever.ai/download/fever/paper_dev.jsonl",
			SHA256:   "41158707810008747946bf23471e82df53e77a513524b9e3ec1c2e674ef5ef8c",
			Size:     2168767,
			FileName: "paper_dev.jsonl",
		}}, nil
	}
	return nil, fmt.Errorf("wikienv: no download for %q (known: %s, %s)", name, NameHotpotQA, NameFEVER)
}

// FEVERWikiPages is the official FEVER Wikipedia dump (June 2017, about
// 1.7 GB zipped; unzip it so that wiki-pages/wiki-NNN.jsonl sits beside
// paper_dev.jsonl). Its SHA-256 and size are the ones Hugging Face's
// datasets library pins for this URL (datasets/fever/dataset_infos.json,
// config wiki_pages, at commit 040102f100964a33fd334e2695f1c493fa6b92db),
// whose pin for paper_dev.jsonl equals ours. Loading all 5.4 M pages needs
// several GB of memory; a filtered pages.jsonl serves as well.
func FEVERWikiPages() fetch.Spec {
	return fetch.Spec{
		Name:     "fever-wiki-pages",
		URL:      "https://fever.ai/download/fever/wiki-pages.zip",
		SHA256:   "4b06d95da6adf7fe02d2796176c670dacccb21348da89cba4c50676ab99665f2",
		Size:     1713485474,
		FileName: "wiki-pages.zip",
	}
}
