package manifest

import "testing"

// jsonItemStarts finds each item's range, line and column, and refuses
// what is not one kubectl JSON List (the general path then reports it).
func TestJSONItemStarts(t *testing.T) {
	const head = "{\n    \"apiVersion\": \"v1\",\n    \"items\": ["
	const tail = "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"
	tests := []struct {
		name  string
		in    string
		items []string // the items' texts
		lines []int
		ok    bool
	}{
		{"two items", head + "\n        {\"a\": 1},\n        {\"b\": [2, {\"c\": \"}]\\\"[\"}]}" + tail,
			[]string{`{"a": 1}`, `{"b": [2, {"c": "}]\"["}]}`}, []int{4, 5}, true},
		{"an item over lines", head + "\n        {\n            \"a\": 1\n        }" + tail,
			[]string{"{\n            \"a\": 1\n        }"}, []int{4}, true},
		{"mismatched brackets", head + "\n        {\"a\": [1}]" + tail, nil, nil, false},
		{"unterminated string", head + "\n        {\"a\": \"x}" + tail, nil, nil, false},
		{"a YAML quote between tokens", head + "\n        {'a': 1}" + tail, nil, nil, false},
		{"not an object", head + "\n        1" + tail, nil, nil, false},
		{"missing comma", head + "\n        {}\n        {}" + tail, nil, nil, false},
		{"kind not List", head + "\n        {}\n    ],\n    \"kind\": \"Pod\"\n}\n", nil, nil, false},
		{"another key after the items", head + "\n        {}\n    ],\n    \"kind\": \"List\",\n    \"x\": 1\n}\n", nil, nil, false},
		{"text after the List", head + "\n        {}" + tail + "{}", nil, nil, false},
		{"no items", head + tail, nil, nil, false},
	}
	for _, tt := range tests {
		starts, cols, ok := jsonItemStarts([]byte(tt.in))
		if ok != tt.ok {
			t.Errorf("%s: ok = %v, want %v", tt.name, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if len(starts) != len(tt.items) {
			t.Errorf("%s: %d items, want %d", tt.name, len(starts), len(tt.items))
			continue
		}
		for i, st := range starts {
			if got := tt.in[st.off:st.end]; got != tt.items[i] || st.line != tt.lines[i] || cols[i] != 9 {
				t.Errorf("%s: item %d is %q at %d:%d, want %q at %d:9", tt.name, i, got, st.line, cols[i], tt.items[i], tt.lines[i])
			}
		}
	}
}
