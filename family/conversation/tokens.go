package conversation

import (
	"fmt"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	scoring "github.com/memharness/memharness/metrics/memqa"
	"github.com/memharness/memharness/releasepacks/memqarel"
)

// bleuTokensOwn is the manifest's and the reports' word for BLEU-1 over
// an untrained Punkt model.
const bleuTokensOwn = "nltk word_tokenize, untrained Punkt (own)"

// bleuTokenizer is the tokenizer mem0's BLEU-1 splits LoCoMo answers with,
// and the label every report of the run prints for it. Under prompts:
// release it is nltk.word_tokenize as mem0's evaluation ran it, with the
// English Punkt model read from the fetched nltk-punkt pack (or
// prompt.release_dirs.nltk-punkt); a missing or altered pack stops the run.
// Otherwise Punkt is untrained, which splits sentences where the English
// model would keep an abbreviation, initial or number with what follows
// (see metrics/memqa.BLEU1). LongMemEval scores no BLEU-1: nil, "".
func bleuTokenizer(cfg *config.Config, getenv func(string) string, packs memqarel.Packs, b memqa.Benchmark) (*scoring.NLTKTokenizer, string, error) {
	if b != memqa.LoCoMo {
		return nil, "", nil
	}
	if cfg.PromptsLabel() != config.PromptsRelease {
		return scoring.NewNLTKTokenizer(scoring.PunktParams{}), bleuTokensOwn, nil
	}
	p, err := memqarel.OpenPunkt(releaseDir(cfg, getenv, memqarel.NameNLTKPunkt), packs.Punkt)
	if err != nil {
		return nil, "", fmt.Errorf("BLEU-1 tokens under prompts: release: %w (fetch it with `bench data fetch %s`, or name a copy in prompt.release_dirs)",
			err, memqarel.NameNLTKPunkt)
	}
	return scoring.NewNLTKTokenizer(p.Params), "nltk word_tokenize, English Punkt of " + p.Source, nil
}
