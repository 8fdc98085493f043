package fleet

import "time"

// An agent's home is decided by claims that every host orders the same
// way without looking at a clock. Each host's record claims the agents
// that write on it, each claim with a generation:
//
//   - an agent's first own write on a host that does not claim it yet
//     (a new agent, or one moving there) claims it at one more than the
//     newest generation any record here gives it, 1 if none does;
//   - a claim keeps its generation for as long as it stands;
//   - the home is the host with the highest generation; two claims of
//     one generation (two hosts claiming at once) go to the host whose
//     name sorts first, so that every host names the same home;
//   - a host that finds another home with a claim above its own stops
//     claiming the agent (Yield) until the agent writes there again.
//
// Records of older versions carry no generations: their claims are of
// generation 0, ordered among themselves by the time of the agent's
// newest write, as those versions did.

// claim is one host's claim of one agent.
type claim struct {
	host string
	gen  int64
	at   int64 // the newest own write there (Record.Agents), for legacy ties
}

// beats reports whether c is a better claim than d.
func (c claim) beats(d claim) bool {
	if c.gen != d.gen {
		return c.gen > d.gen
	}
	if c.gen == 0 && c.at != d.at {
		return c.at > d.at
	}
	return c.host < d.host
}

// claims lists r's claims.
func (r Record) claims() map[string]claim {
	out := map[string]claim{}
	if r.Claims == nil {
		for id, at := range r.Agents {
			out[id] = claim{host: r.Host, at: at}
		}
		return out
	}
	for id, gen := range r.Claims {
		out[id] = claim{host: r.Host, gen: gen, at: r.Agents[id]}
	}
	return out
}

// best maps each claimed agent to its best claim among recs, leaving out
// host skip's.
func best(recs map[string]Record, skip string) map[string]claim {
	out := map[string]claim{}
	for host, r := range recs {
		if host == skip {
			continue
		}
		for id, c := range r.claims() {
			if prev, ok := out[id]; !ok || c.beats(prev) {
				out[id] = c
			}
		}
	}
	return out
}

// Owners maps each claimed agent to its home host: the best claim.
func Owners(recs map[string]Record) map[string]string {
	out := map[string]string{}
	for id, c := range best(recs, "") {
		out[id] = c.host
	}
	return out
}

// Claimed is what host self claims at its next record, given the records
// here and the agents with a home mark on this machine (HomeMarks): the
// generation of each claim, and the marked agents it gives up because
// another host's claim beats its own (their marks are to be removed,
// Unmark, so that their next write here claims them again).
func Claimed(recs map[string]Record, self string, marked map[string]int64) (claims map[string]int64, yield []string) {
	claims = map[string]int64{}
	others := best(recs, self)
	own := recs[self].Claims
	for id := range marked {
		other, contested := others[id]
		gen, had := own[id]
		switch {
		case !had && contested:
			claims[id] = other.gen + 1
		case !had:
			claims[id] = 1
		case contested && other.beats(claim{host: self, gen: gen}):
			yield = append(yield, id)
		default:
			claims[id] = gen
		}
	}
	return claims, yield
}

// Recent is the Agents of host self's next record: the marked agents'
// newest own writes, and those of its previous record that no longer
// have a mark (given up) while they are within DoubleClaimWindow of now,
// so the warning about an agent writing on two hosts outlives the mark.
func Recent(prev Record, marked map[string]int64, now time.Time) map[string]int64 {
	out := map[string]int64{}
	for id, at := range prev.Agents {
		if now.UnixMilli()-at <= DoubleClaimWindow.Milliseconds() {
			out[id] = at
		}
	}
	for id, at := range marked {
		out[id] = max(out[id], at)
	}
	return out
}
