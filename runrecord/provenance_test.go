package runrecord

import "testing"

func TestProvenanceLabel(t *testing.T) {
	src := Provenance{Prompt: FromSource, Sampling: FromSource, Parser: FromOwn}
	tests := []struct {
		name string
		p    map[string]Provenance
		want string
	}{
		{"none", nil, ""},
		{"grouped by owner", map[string]Provenance{
			"pramem/trial": src, "pramem/reflect": src, "truncation/predict": src,
			"pramem/practice_draw": {Prompt: FromNone, Sampling: FromSource, Parser: FromNone, Note: "not reproducible"},
		}, "pramem/practice_draw: prompt none, sampling source, parser none (not reproducible); " +
			"pramem/{reflect,trial}, truncation/predict: prompt source, sampling source, parser own"},
		{"one stage", map[string]Provenance{"retail/act": {Prompt: FromSource, Sampling: FromPaper, Parser: FromSource}},
			"retail/act: prompt source, sampling paper, parser source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (Manifest{Provenance: tt.p}).ProvenanceLabel(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
