package memqa

import (
	"github.com/memharness/memharness/datasets/fetch"
)

// The pinned releases.
const (
	// LoCoMoRepository and LoCoMoCommit pin the LoCoMo release (CC BY-NC
	// 4.0, so never shipped).
	LoCoMoRepository = "snap-research/LoCoMo"
	LoCoMoCommit     = "3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376"
	// LongMemEvalRepository and LongMemEvalRevision pin the LongMemEval
	// release on Hugging Face (the original files the paper reports on,
	// not the later "longmemeval-cleaned" repository).
	LongMemEvalRepository = "xiaowu0162/longmemeval"
	LongMemEvalRevision   = "2ec2a557f339b6c0369619b1ed5793734cc87533"
)

// Specs are the pinned files of benchmark b, each saved under the name its
// loader reads; nil for an unknown benchmark.
func Specs(b Benchmark) []fetch.Spec {
	switch b {
	case LoCoMo:
		return []fetch.Spec{{
			Name:     string(LoCoMo),
			URL:      "https://raw.githubusercontent.com/" + LoCoMoRepository + "/" + LoCoMoCommit + "/data/" + LoCoMoFile,
			SHA256:   "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4",
			GitBlob:  "d95b872480b413d935821fdc3c84f8a8f5f29e73",
			Size:     2805274,
			FileName: LoCoMoFile,
		}}
	case LongMemEval:
		base := "https://huggingface.co/datasets/" + LongMemEvalRepository + "/resolve/" + LongMemEvalRevision + "/"
		return []fetch.Spec{
			{Name: "longmemeval_s", URL: base + "longmemeval_s", FileName: LongMemEvalS, Size: 278025796,
				SHA256: "08d8dad4be43ee2049a22ff5674eb86725d0ce5ff434cde2627e5e8e7e117894"},
			{Name: "longmemeval_oracle", URL: base + "longmemeval_oracle", FileName: LongMemEvalOracle, Size: 15388478,
				SHA256: "821a2034d219ab45846873dd14c14f12cfe7776e73527a483f9dac095d38620c"},
			{Name: "longmemeval_m", URL: base + "longmemeval_m", FileName: LongMemEvalM, Size: 2745274681,
				SHA256: "fb5413e3b077c62927daab794836991a2fcfa61ceacab57dc679fb02daaff2d9"},
		}
	}
	return nil
}
