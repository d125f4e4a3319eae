package taubench

import (
	"github.com/memharness/memharness/datasets/fetch"
)

// upstreamCommit is the sierra-research/tau-bench commit the fixtures and
// pins come from.
const upstreamCommit = "59a200c6d575d595120f1cb70fea53cef0632f6b"

func rawURL(p string) string {
	return "https://raw.githubusercontent.com/sierra-research/tau-bench/" + upstreamCommit + "/tau_bench/envs/" + p
}

// FetchSpec lists the official files of a domain for `bench data fetch`,
// to be saved under one folder per domain with the FileName given; Open
// reads that folder as is (tasks from the .py files).
//
// The pins are the SHA-256 and size of each file's blob at upstreamCommit
// (for the databases and policies also those of the verbatim copies the
// tests read).
func FetchSpec(d Domain) []fetch.Spec {
	f := func(file, sha string, size int64) fetch.Spec {
		return fetch.Spec{Name: EnvName(d), URL: rawURL(string(d) + "/" + file), SHA256: sha, Size: size, FileName: lastElem(file)}
	}
	if d == Airline {
		return []fetch.Spec{
			f("data/users.json", "bd264e2a31e0fa35cdfef8987e70a0dd3776828b582fe90e7a44823a12eb4cea", 595947),
			f("data/flights.json", "444d7565c68434a3e3fb72efd717f9f9cd5c56dce227f6f56e078f1cb0ed233a", 2114218),
			f("data/reservations.json", "1cf0bbc58ad984be9de7c24dba6dd27393f94cdbd482d8524f6a54db1f561a8c", 2325594),
			f("wiki.md", "56c335801c16e26b54f600f9db99eb04d31db477e86eb160341d5c66b796c5c8", 6155),
			f("tasks_test.py", "14cdb6b4fe810faac9a0cc8395d3c7b32c883a979d1cde8c8003ae25a93d2ff3", 67250),
		}
	}
	return []fetch.Spec{
		f("data/users.json", "6f4fd104cc5e80b92166c4035315c31532c6cea52a90dcdf18425ee7f87c2b82", 322932),
		f("data/orders.json", "2598a12586d28f2d6bd16bc86f4c800029b6af18e0abb5c475ef5c869c11ced1", 1810945),
		f("data/products.json", "a9eabcc1a9742c5f5288c2779acce52b9308423383ed24706bbaf0889f762a0f", 172258),
		f("wiki.md", "d539fd2a46a8b8dd2e934ff9ed92f43e9f6b56bc7a718db8d2803ba8ad8f6bf7", 5718),
		f("tasks_test.py", "6f09468923c6cfb6162e94fe659264d6aee70816c18d51278fb4a581db7765a4", 169476),
		f("tasks_train.py", "30880ce4e8d524dd0fdd18c1d3a5713551fc8638e82673de3e0fd1ab70046c6f", 471974),
		f("tasks_dev.py", "87dfe578d0271e7b0b5dfb40621a5c0dcc0e8452a75b8f3f8d1dcf0abac4ff14", 19326),
	}
}

func lastElem(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
