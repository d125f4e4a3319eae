package webshop

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// HumanTrajectory is one of WebShop's human demonstration logs (one JSON
// object per visited page) turned into a goal and the text-mode actions
// that reproduce the visit.
type HumanTrajectory struct {
	Goal    Goal
	Actions []string
	// Reward and RewardInfo are what the reference server recorded at
	// purchase (nil info when the log has no purchase).
	Reward     float64
	RewardInfo map[string]any
}

type humanRecord struct {
	Page       string          `json:"page"`
	URL        string          `json:"url"`
	Goal       *rawGoal        `json:"goal"`
	Content    json.RawMessage `json:"content"`
	Reward     *float64        `json:"reward"`
	RewardInfo map[string]any  `json:"reward_info"`
}

type humanContent struct {
	Keywords json.RawMessage   `json:"keywords"`
	Page     json.RawMessage   `json:"page"`
	ASIN     string            `json:"asin"`
	Options  map[string]string `json:"options"`
}

// ReadHumanTrajectory reads one human log (JSON lines). file names the
// source in errors and becomes the goal's ID (without directories).
func ReadHumanTrajectory(data []byte, file string) (*HumanTrajectory, error) {
	var recs []humanRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r humanRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if r.Page == "" {
			return nil, fmt.Errorf("%s:%d: field page: missing", file, line)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(recs) == 0 || recs[0].Goal == nil {
		return nil, fmt.Errorf("%s:1: field goal: missing", file)
	}
	g, err := recs[0].Goal.convert()
	if err != nil {
		return nil, fmt.Errorf("%s:1: goal: %w", file, err)
	}
	g.ID = strings.TrimSuffix(file[strings.LastIndexByte(file, '/')+1:], ".jsonl")
	tr := &HumanTrajectory{Goal: g}
	var prev *humanRecord
	var prevC humanContent
	for i := range recs {
		r := &recs[i]
		var c humanContent
		if len(r.Content) > 0 {
			if err := json.Unmarshal(r.Content, &c); err != nil {
				return nil, fmt.Errorf("%s:%d: field content: %w", file, i+1, err)
			}
		}
		if prev != nil {
			acts, err := humanActions(prev, prevC, r, c)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", file, i+1, err)
			}
			tr.Actions = append(tr.Actions, acts...)
		}
		if r.Page == "done" && r.Reward != nil {
			tr.Reward, tr.RewardInfo = *r.Reward, r.RewardInfo
		}
		prev, prevC = r, c
	}
	return tr, nil
}

// humanActions are the clicks that lead from page a to page b.
func humanActions(a *humanRecord, ac humanContent, b *humanRecord, bc humanContent) ([]string, error) {
	click := func(s string) []string { return []string{Action{ActClick, s}.String()} }
	switch b.Page {
	case "index":
		if a.Page == "index" {
			return nil, nil // a reload
		}
		return click(btnBack), nil
	case "search_results":
		switch a.Page {
		case "index":
			kw, err := keywords(bc.Keywords)
			if err != nil {
				return nil, err
			}
			return []string{Action{ActSearch, strings.Join(kw, " ")}.String()}, nil
		case "search_results":
			pa, pb := pageNumber(ac.Page), pageNumber(bc.Page)
			if pb > pa {
				return click(btnNext), nil
			}
			return click(btnPrev), nil
		}
		return click(btnPrev), nil
	case "item_page":
		switch a.Page {
		case "search_results":
			return click(bc.ASIN), nil
		case "item_sub_page":
			return click(btnPrev), nil
		case "item_page":
			var out []string
			for _, k := range sortedKeys(bc.Options) {
				if ac.Options[k] != bc.Options[k] {
					out = append(out, click(bc.Options[k])...)
				}
			}
			return out, nil
		}
	case "item_sub_page":
		for _, s := range subPages {
			if strings.Contains(b.URL, "/"+s+"/") {
				return click(s), nil
			}
		}
		return nil, fmt.Errorf("field url: no sub-page in %q", b.URL)
	case "done":
		return click(btnBuy), nil
	}
	return nil, fmt.Errorf("field page: no action leads from %q to %q", a.Page, b.Page)
}

// keywords decodes a keyword list, given as a JSON list or as the string
// of a Python list ("['a', 'b']").
func keywords(raw json.RawMessage) ([]string, error) {
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("field content.keywords: want a list")
	}
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "["), "]")
	for _, part := range strings.Split(s, ",") {
		part = strings.Trim(strings.TrimSpace(part), `'"`)
		if part != "" {
			list = append(list, part)
		}
	}
	return list, nil
}

// pageNumber reads a page given as a number or a string; 1 when absent.
func pageNumber(raw json.RawMessage) int {
	s := strings.Trim(string(bytes.TrimSpace(raw)), `"`)
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return 1
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
