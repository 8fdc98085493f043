package toolcall

import "strings"

// opts are a command's arguments split into options and operands.
type opts struct {
	ops  []word            // the operands, in order
	has  map[string]bool   // the options given: "i" for -i, "in-place" for --in-place
	vals map[string][]word // the values options took
}

// optSpec says which options of a command take a value: short ones in
// value (the rest of the cluster, else the next word), short ones in
// optional (only the rest of the cluster: sed -i.bak), long ones in long
// (--name=v or --name v). "--" ends the options; "-" is an operand.
type optSpec struct {
	value, optional string
	long            []string
}

func (sp optSpec) parse(args []word) opts {
	o := opts{has: map[string]bool{}, vals: map[string][]word{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.lit && a.text == "--":
			o.ops = append(o.ops, args[i+1:]...)
			return o
		case !a.isFlag():
			o.ops = append(o.ops, a)
		case strings.HasPrefix(a.text, "--"):
			name, val, eq := strings.Cut(a.text[2:], "=")
			o.has[name] = true
			switch {
			case eq:
				o.vals[name] = append(o.vals[name], literal(val))
			case contains(sp.long, name) && i+1 < len(args):
				i++
				o.vals[name] = append(o.vals[name], args[i])
			}
		default:
			cluster := a.text[1:]
			for j := 0; j < len(cluster); j++ {
				c := cluster[j : j+1]
				o.has[c] = true
				rest := cluster[j+1:]
				if strings.Contains(sp.optional, c) {
					if rest != "" {
						o.vals[c] = append(o.vals[c], literal(rest))
					}
					break
				}
				if strings.Contains(sp.value, c) {
					switch {
					case rest != "":
						o.vals[c] = append(o.vals[c], literal(rest))
					case i+1 < len(args):
						i++
						o.vals[c] = append(o.vals[c], args[i])
					}
					break
				}
			}
		}
	}
	return o
}

// any reports whether one of names was given.
func (o opts) any(names ...string) bool {
	for _, n := range names {
		if o.has[n] {
			return true
		}
	}
	return false
}

// values are the values of the options names, in order of names.
func (o opts) values(names ...string) []word {
	var out []word
	for _, n := range names {
		out = append(out, o.vals[n]...)
	}
	return out
}
