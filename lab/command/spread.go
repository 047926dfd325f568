package command

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// SpreadPatch is what `set spread` changes in a topology spread
// constraint, each field parsed once into the API's type. A nil field is
// left as it is; MatchLabelKeys non-nil and empty clears the list.
type SpreadPatch struct {
	MaxSkew            *int32
	MinDomains         *int32
	TopologyKey        *string // as written: "zone"/"hostname"/"region" are expanded by the lab
	WhenUnsatisfiable  *string
	NodeAffinityPolicy *string
	NodeTaintsPolicy   *string
	MatchLabelKeys     []string
	LabelSelector      map[string]string // matchLabels; nil: unchanged
}

// IsEmpty reports whether the patch changes nothing.
func (p SpreadPatch) IsEmpty() bool { return len(p.fields()) == 0 }

// fields prints the patch as the field=value words of the command, in a
// fixed order (the canonical form the history records).
func (p SpreadPatch) fields() []string {
	var out []string
	add := func(k, v string) { out = append(out, quoteIfNeeded(k+"="+v)) }
	num := func(k string, v *int32) {
		if v != nil {
			add(k, strconv.Itoa(int(*v)))
		}
	}
	str := func(k string, v *string) {
		if v != nil {
			add(k, *v)
		}
	}
	num("maxSkew", p.MaxSkew)
	num("minDomains", p.MinDomains)
	str("topologyKey", p.TopologyKey)
	str("whenUnsatisfiable", p.WhenUnsatisfiable)
	str("nodeAffinityPolicy", p.NodeAffinityPolicy)
	str("nodeTaintsPolicy", p.NodeTaintsPolicy)
	if p.MatchLabelKeys != nil {
		add("matchLabelKeys", strings.Join(p.MatchLabelKeys, ","))
	}
	if p.LabelSelector != nil {
		keys := make([]string, 0, len(p.LabelSelector))
		for k := range p.LabelSelector {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		pairs := make([]string, len(keys))
		for i, k := range keys {
			pairs[i] = k + "=" + p.LabelSelector[k]
		}
		add("labelSelector", strings.Join(pairs, ","))
	}
	return out
}

// spreadFields parses each field `set spread` accepts into the patch (a
// later word for the same field wins).
var spreadFields = map[string]func(v string, p *SpreadPatch) error{
	"maxSkew":            positiveInt("maxSkew", func(p *SpreadPatch, n int32) { p.MaxSkew = &n }),
	"minDomains":         positiveInt("minDomains", func(p *SpreadPatch, n int32) { p.MinDomains = &n }),
	"whenUnsatisfiable":  oneOf("whenUnsatisfiable", func(p *SpreadPatch, v string) { p.WhenUnsatisfiable = &v }, "DoNotSchedule", "ScheduleAnyway"),
	"nodeAffinityPolicy": oneOf("nodeAffinityPolicy", func(p *SpreadPatch, v string) { p.NodeAffinityPolicy = &v }, "Honor", "Ignore"),
	"nodeTaintsPolicy":   oneOf("nodeTaintsPolicy", func(p *SpreadPatch, v string) { p.NodeTaintsPolicy = &v }, "Honor", "Ignore"),
	"topologyKey": func(v string, p *SpreadPatch) error {
		if err := checkLabelKey(v); err != nil {
			return err
		}
		p.TopologyKey = &v
		return nil
	},
	"matchLabelKeys": func(v string, p *SpreadPatch) error {
		keys := []string{}
		if v != "" {
			keys = strings.Split(v, ",")
		}
		for _, k := range keys {
			if err := checkLabelKey(k); err != nil {
				return err
			}
		}
		p.MatchLabelKeys = keys
		return nil
	},
	"labelSelector": func(v string, p *SpreadPatch) error {
		sel := map[string]string{}
		for _, pair := range strings.Split(v, ",") {
			kv, err := parseKV(pair)
			if err != nil || kv.Remove {
				return fmt.Errorf("labelSelector takes k=v[,k=v…], not %q", v)
			}
			sel[kv.Key] = kv.Value
		}
		p.LabelSelector = sel
		return nil
	},
}

// setSpreadField parses one field=value word into the patch.
func setSpreadField(w string, p *SpreadPatch) error {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return fmt.Errorf("%q: expected field=value", w)
	}
	set, ok := spreadFields[w[:i]]
	if !ok {
		return fmt.Errorf("unknown spread field %q; fields are %s", w[:i], strings.Join(sortedKeys(spreadFields), ", "))
	}
	return set(w[i+1:], p)
}

func positiveInt(name string, set func(*SpreadPatch, int32)) func(string, *SpreadPatch) error {
	return func(v string, p *SpreadPatch) error {
		// the API's check (validation.go validateTopologySpreadConstraints:
		// isNotPositiveErrorMsg) on the int32 field
		n, err := apiInt32(name, v, 1, aboveZero)
		if err != nil {
			return err
		}
		set(p, n)
		return nil
	}
}

func oneOf(name string, set func(*SpreadPatch, string), vals ...string) func(string, *SpreadPatch) error {
	return func(v string, p *SpreadPatch) error {
		for _, x := range vals {
			if v == x {
				set(p, v)
				return nil
			}
		}
		return fmt.Errorf("%s must be %s, not %q", name, strings.Join(vals, " or "), v)
	}
}
