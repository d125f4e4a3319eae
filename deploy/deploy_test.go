package deploy

import (
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// job is the part of a batch/v1 Job the harness depends on.
type job struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    *int   `yaml:"completions"`
		Parallelism    *int   `yaml:"parallelism"`
		Template       struct {
			Spec struct {
				RestartPolicy   string `yaml:"restartPolicy"`
				SecurityContext struct {
					RunAsNonRoot *bool `yaml:"runAsNonRoot"`
					RunAsUser    *int  `yaml:"runAsUser"`
				} `yaml:"securityContext"`
				Containers []struct {
					Name  string   `yaml:"name"`
					Image string   `yaml:"image"`
					Args  []string `yaml:"args"`
					Env   []struct {
						Name      string         `yaml:"name"`
						Value     string         `yaml:"value"`
						ValueFrom map[string]any `yaml:"valueFrom"`
					} `yaml:"env"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name string `yaml:"name"`
					PVC  *struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func readJobs(t *testing.T, path string) map[string]job {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	jobs := map[string]job{}
	for {
		var j job
		err := dec.Decode(&j)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if j.Kind != "Job" || j.APIVersion != "batch/v1" {
			t.Fatalf("%s: document %q is %s %s, want batch/v1 Job", path, j.Metadata.Name, j.APIVersion, j.Kind)
		}
		jobs[j.Metadata.Name] = j
	}
	return jobs
}

func TestKubernetesJobs(t *testing.T) {
	const path = "k8s/memharness-jobs.yaml"
	jobs := readJobs(t, path)
	shards, ok := jobs["memharness-shards"]
	if !ok {
		t.Fatalf("%s: no Job memharness-shards", path)
	}
	merge, ok := jobs["memharness-merge"]
	if !ok {
		t.Fatalf("%s: no Job memharness-merge", path)
	}

	// Shards: an Indexed Job whose completion count bench is told.
	s := shards.Spec
	if s.CompletionMode != "Indexed" {
		t.Errorf("shards: completionMode %q, want Indexed (bench reads JOB_COMPLETION_INDEX)", s.CompletionMode)
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Completions < 1 {
		t.Fatalf("shards: completions and parallelism must be set")
	}
	if len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("shards: want one container")
	}
	c := s.Template.Spec.Containers[0]
	count := ""
	for _, e := range c.Env {
		switch e.Name {
		case "BENCH_SHARD_COUNT":
			count = e.Value
		case "OPENAI_API_KEY":
			if e.Value != "" || e.ValueFrom["secretKeyRef"] == nil {
				t.Error("shards: OPENAI_API_KEY must come from a Secret, never a literal")
			}
		case "BENCH_SHARD":
			t.Error("shards: BENCH_SHARD would override the completion index")
		}
	}
	if n, err := strconv.Atoi(count); err != nil || n != *s.Completions {
		t.Errorf("shards: BENCH_SHARD_COUNT %q must equal completions %d", count, *s.Completions)
	}
	if len(c.Args) < 3 || c.Args[0] != "run" || slices.Contains(c.Args, "--shard") {
		t.Errorf("shards: args %q: want `run -c CONFIG --out DIR` (the shard comes from the index)", c.Args)
	}
	shardConfig, shardOut := argAfter(c.Args, "-c"), argAfter(c.Args, "--out")

	// Merge: the same config and output directory, waiting for the shards.
	if len(merge.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("merge: want one container")
	}
	m := merge.Spec.Template.Spec.Containers[0]
	if len(m.Args) == 0 || m.Args[0] != "merge" || argAfter(m.Args, "--wait") == "" {
		t.Errorf("merge: args %q: want `merge -c CONFIG --out DIR --wait D` (Jobs have no dependencies)", m.Args)
	}
	if argAfter(m.Args, "-c") != shardConfig || argAfter(m.Args, "--out") != shardOut {
		t.Errorf("merge uses config %q out %q; shards use %q %q", argAfter(m.Args, "-c"), argAfter(m.Args, "--out"), shardConfig, shardOut)
	}

	for name, j := range jobs {
		spec := j.Spec.Template.Spec
		if spec.RestartPolicy != "Never" {
			t.Errorf("%s: restartPolicy %q; want Never (a retried pod resumes through the run store)", name, spec.RestartPolicy)
		}
		if sc := spec.SecurityContext; sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
			t.Errorf("%s: must run as a non-root user", name)
		}
		// The output directory is a shared volume mounted at --out.
		ct := spec.Containers[0]
		out := argAfter(ct.Args, "--out")
		mounted := ""
		for _, vm := range ct.VolumeMounts {
			if vm.MountPath == out {
				mounted = vm.Name
			}
		}
		if mounted == "" {
			t.Errorf("%s: --out %q is not a mounted volume", name, out)
		}
		claim := ""
		for _, v := range spec.Volumes {
			if v.Name == mounted && v.PVC != nil {
				claim = v.PVC.ClaimName
			}
		}
		if claim == "" {
			t.Errorf("%s: volume %q is not a PersistentVolumeClaim", name, mounted)
		}
		if !strings.HasPrefix(argAfter(ct.Args, "-c"), "/app/configs/") {
			t.Errorf("%s: config %q is not one baked into the image (/app/configs)", name, argAfter(ct.Args, "-c"))
		}
	}
	if claimOf(shards) != claimOf(merge) {
		t.Errorf("shards and merge mount different claims: %q vs %q", claimOf(shards), claimOf(merge))
	}
}

func claimOf(j job) string {
	for _, v := range j.Spec.Template.Spec.Volumes {
		if v.PVC != nil {
			return v.PVC.ClaimName
		}
	}
	return ""
}

func argAfter(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// TestDockerfile checks the container build: multi-stage, a static binary,
// a non-root user, the configs the manifests name.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if n := len(regexp.MustCompile(`(?m)^FROM `).FindAllString(text, -1)); n < 2 {
		t.Errorf("Dockerfile has %d stages; want a build stage and a runtime stage", n)
	}
	for _, want := range []string{"CGO_ENABLED=0", "./cmd/bench", "/app/configs"} {
		if !strings.Contains(text, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	users := regexp.MustCompile(`(?m)^USER (\S+)`).FindAllStringSubmatch(text, -1)
	if len(users) == 0 {
		t.Fatal("Dockerfile sets no USER")
	}
	if last := users[len(users)-1][1]; last == "root" || strings.HasPrefix(last, "0") {
		t.Errorf("the image runs as %q; want a non-root user", last)
	}
}
