package scienceworld

import "github.com/memharness/memharness/datasets/fetch"

// Upstream commits of allenai/ScienceWorld the files are pinned to.
const (
	goldCommit  = "1253c33f79a82064b1bd0d3fec827342bb1a8539" // last commit holding goldpaths/goldsequences-23-24.json
	tasksCommit = "e8216d6044e8e39be9fcb185e3b2dfb602584b52"
)

// FetchSpec lists the official downloads, saved under the names Open reads.
// The pins are the SHA-256 of the fixture copies, whose lengths and last
// bytes match the upstream files at the pinned commits. Upstream later
// replaced the per-task JSON files by goldpaths-all.zip (> 4 MiB), which we
// could not see and therefore do not pin; the simulator itself
// (scienceworld.jar) is run by the user's AgentGym server, not fetched.
func FetchSpec() []fetch.Spec {
	gh := func(commit, path string) string {
		return "https://raw.githubusercontent.com/allenai/ScienceWorld/" + commit + "/" + path
	}
	return []fetch.Spec{
		{
			Name:     Name,
			URL:      gh(goldCommit, "goldpaths/goldsequences-23-24.json"),
			SHA256:   "46bf12f6ad15ef3775019db8cd58571b3545fbaa30d2c7ba9dcb3b3ea4173ca7",
			Size:     614849,
			FileName: "goldsequences-23-24.json",
		},
		{
			Name:     Name,
			URL:      gh(tasksCommit, "scienceworld/tasks.json"),
			SHA256:   "cd1a6ffd0a43c269d0167de4d53ce7c42687a7b42e8b0ae228f30b3321885a79",
			Size:     4871,
			FileName: TasksFile,
		},
	}
}
