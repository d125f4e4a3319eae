package config

import "testing"

func BenchmarkLoad(b *testing.B) {
	o := Options{Getenv: noEnv}
	for b.Loop() {
		if _, err := o.Load("testdata/full.yaml", []string{"methods[0].history_tokens=16000"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExpand(b *testing.B) {
	o := Options{Getenv: noEnv}
	for b.Loop() {
		if _, err := o.Expand("testdata/sweep.yaml", nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHash(b *testing.B) {
	cfg, err := Options{Getenv: noEnv}.Load("testdata/full.yaml", nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := cfg.Hash(); err != nil {
			b.Fatal(err)
		}
	}
}
