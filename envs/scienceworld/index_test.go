package scienceworld

import "testing"

func TestSciWorldDataIndex(t *testing.T) {
	cases := []struct {
		name string
		v    int
		want int
		ok   bool
	}{
		{"boil", 0, 0, true},
		{"melt", 0, 30, true},
		{"use-thermometer", 539, 659, true},
		{"chemistry-mix", 0, 4136, true}, // grow-plant and grow-fruit are skipped
		{"task-7-identify-life-stages-1", 3, 4618, true},
		{"identify-life-stages-2", 9, 4638, true},
		{"identify-life-stages-2", 10, 0, false},
		{"grow-plant", 0, 0, false},
		{"mendelian-genetics-known-plant", 0, 0, false},
		{"boil", -1, 0, false},
		{"teleport", 0, 0, false},
	}
	for _, tc := range cases {
		got, err := SciWorldDataIndex(tc.name, tc.v)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("SciWorldDataIndex(%q, %d) = %d, %v; want %d ok=%v", tc.name, tc.v, got, err, tc.want, tc.ok)
		}
	}
	tasks := SciWorldTasks()
	if len(tasks) != SciWorldGames {
		t.Fatalf("%d tasks, want %d", len(tasks), SciWorldGames)
	}
	for i, task := range tasks {
		tg := task.Data.(*Target)
		if idx, err := SciWorldDataIndex(tg.TaskName, tg.Variation); err != nil || idx != i || tg.Index != i {
			t.Fatalf("task %d (%s): index %d / %d, %v", i, task.ID, idx, tg.Index, err)
		}
	}
}

func TestCanonicalTaskName(t *testing.T) {
	for in, want := range map[string]string{
		"task-7-identify-life-stages-1":          "identify-life-stages-1",
		"task-1-boil":                            "boil",
		"boil":                                   "boil",
		"task-10-mendelian-genetics-known-plant": "mendelian-genetics-known-plant",
	} {
		if got := CanonicalTaskName(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}
