package omnibehavior

import "github.com/memharness/memharness/datasets/behavior"

// InspectLine describes one record: its flags and binary labels (backs
// `bench data inspect omnibehavior --json`).
type InspectLine struct {
	User              string         `json:"user"`
	Index             int            `json:"index"`
	Scene             string         `json:"scene"`
	ShouldFilter      bool           `json:"should_filter"`
	SufficientContext bool           `json:"sufficient_context"`
	HighValue         bool           `json:"high_value"`
	Labels            map[string]int `json:"labels"`
}

// Inspect lists every record of every user, in order.
func Inspect(users []User) []InspectLine {
	var out []InspectLine
	for _, u := range users {
		for i := range u.Records {
			r := &u.Records[i]
			line := InspectLine{
				User:              u.ID,
				Index:             i,
				Scene:             r.Scene,
				ShouldFilter:      ShouldFilter(r),
				SufficientContext: HasSufficientContext(r),
				HighValue:         HighValue(r),
				Labels:            map[string]int{},
			}
			for _, l := range Labels(r) {
				if l.Kind == behavior.Binary {
					line.Labels[l.Field] = int(l.Value)
				}
			}
			out = append(out, line)
		}
	}
	return out
}

// Stats summarises loaded users.
type Stats struct {
	Users   int `json:"users"`
	Records int `json:"records"`
	// Scenes counts records per canonical scene (unknown scenes under
	// their raw name).
	Scenes map[string]int `json:"scenes"`
	// Filtered counts records ShouldFilter drops from histories.
	Filtered int `json:"filtered"`
	// FirstTimestamp and LastTimestamp are the extreme timestamp strings.
	FirstTimestamp string `json:"first_timestamp,omitempty"`
	LastTimestamp  string `json:"last_timestamp,omitempty"`
}

// ComputeStats summarises users.
func ComputeStats(users []User) Stats {
	s := Stats{Users: len(users), Scenes: map[string]int{}}
	for _, u := range users {
		for i := range u.Records {
			r := &u.Records[i]
			s.Records++
			s.Scenes[r.Scene]++
			if ShouldFilter(r) {
				s.Filtered++
			}
			if r.Timestamp != "" && (s.FirstTimestamp == "" || r.Timestamp < s.FirstTimestamp) {
				s.FirstTimestamp = r.Timestamp
			}
			if r.Timestamp > s.LastTimestamp {
				s.LastTimestamp = r.Timestamp
			}
		}
	}
	return s
}

// Stats summarises the dataset's users.
func (d *Dataset) Stats() Stats { return ComputeStats(d.Users) }
