package mind2web

import "testing"

const page = `<html backend_node_id="1">
 <body backend_node_id="2">
  <div backend_node_id="3">
   <div backend_node_id="4">
    <select backend_node_id="136" name="type" class="rez-type">
     <option backend_node_id="7" value="reservations" option_selected="true"><text>Dine in</text></option>
     <option backend_node_id="8" value="pickup"><text>Pickup</text></option>
    </select>
   </div>
   <div backend_node_id="9"><input backend_node_id="753" type="text" aria_label="location" input_value="Columbus, OH"/></div>
   <a backend_node_id="10" href="https://example.org/x" title="http://nope"><text>Far   away   link</text></a>
  </div>
  <footer backend_node_id="20" role="presentation"><p backend_node_id="21"><text>"Quoted" &amp; more</text></p></footer>
 </body>
</html>`

func TestObserve(t *testing.T) {
	tests := []struct {
		name    string
		cands   []string
		want    string
		missing int
	}{
		{
			name:  "select and input",
			cands: []string{"136", "753"},
			// body, div 4 and div 9 lose their only attribute (the id) and
			// wrap one element each, so they are unwrapped.
			want: "<html> <div> <select id=136 type rez-type> <option reservations true> Dine in </option> " +
				"<option pickup> Pickup </option> </select> <input id=753 text location columbus, oh /> </div> </html>",
		},
		{
			// The sibling divs are kept but not their contents, so they end
			// up empty and are unwrapped away; urls are not descriptions.
			name:  "emptied siblings vanish, urls dropped",
			cands: []string{"10"},
			want:  "<html> <a id=10> Far away link </a> </html>",
		},
		{
			name:    "missing candidate left out",
			cands:   []string{"21", "999"},
			want:    `<html> <footer> <p id=21> Quoted & more </p> </footer> </html>`,
			missing: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, missing, err := observe(page, tt.cands)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("observe:\n got %s\nwant %s", got, tt.want)
			}
			if len(missing) != tt.missing {
				t.Errorf("missing = %v, want %d", missing, tt.missing)
			}
		})
	}
}

func TestObserveBadHTML(t *testing.T) {
	for _, in := range []string{"", "just text", "<a></a><b></b>"} {
		if _, _, err := observe(in, []string{"1"}); err == nil {
			t.Errorf("observe(%q): want an error", in)
		}
	}
}

func TestDescribe(t *testing.T) {
	n := &node{tag: "button"}
	for _, kv := range [][2]string{
		{"class", "btn  primary"}, {"type", "SUBMIT"}, {"aria_label", "Search the whole catalogue now please"},
		{"title", "submit"}, {"value", "none"}, {"name", "averyveryverylongname short"},
	} {
		n.attrs = append(n.attrs, xmlAttr(kv[0], kv[1]))
	}
	// Attribute order is fixed (type before aria_label before name ...),
	// repeated values are dropped, long words and "none" too.
	want := "submit search the whole catalogue now short btn primary"
	if got := describe(n); got != want {
		t.Errorf("describe = %q, want %q", got, want)
	}
}

func FuzzObserve(f *testing.F) {
	f.Add(page, "136")
	f.Add(`<a backend_node_id="1"><b backend_node_id="1"/></a>`, "1")
	f.Add(`<a backend_node_id="1"><text>x</a></text>`, "1")
	f.Fuzz(func(t *testing.T, html, id string) {
		_, _, _ = observe(html, []string{id, "1"})
	})
}
