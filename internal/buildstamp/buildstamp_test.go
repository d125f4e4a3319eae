package buildstamp

import (
	"runtime/debug"
	"testing"
)

func TestOf(t *testing.T) {
	vcs := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "4bcaf1d0"}, {Key: "vcs.time", Value: "2026-12-01T19:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	for _, tc := range []struct {
		name   string
		info   *debug.BuildInfo
		linked string
		want   Stamp
	}{
		{"no build info", nil, "", Stamp{}},
		{"no build info, linker flag", nil, "abc123", Stamp{Commit: "abc123"}},
		{"go's vcs stamp", vcs, "", Stamp{Commit: "4bcaf1d0", Time: "2026-12-01T19:00:00Z", Modified: true}},
		{"go's vcs stamp wins over the linker flag", vcs, "abc123", Stamp{Commit: "4bcaf1d0", Time: "2026-12-01T19:00:00Z", Modified: true}},
		{"test binary, linker flag", &debug.BuildInfo{GoVersion: "go1.26.8"}, "abc123", Stamp{Commit: "abc123"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := linkedCommit
			linkedCommit = tc.linked
			defer func() { linkedCommit = old }()
			if got := Of(tc.info, tc.info != nil); got != tc.want {
				t.Errorf("%+v, want %+v", got, tc.want)
			}
		})
	}
}
