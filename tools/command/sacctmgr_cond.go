package command

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// mgrCond is a list command's conditions and options.
type mgrCond struct {
	w *output
	// A nil list does not filter; a list with "" selects the rows
	// without a value (user= selects the accounts' own associations).
	// Condition lists come lowercased from addCharList, as Slurm 22.05's
	// sacctmgr reads every one with slurm_addto_char_list; format is
	// kept as given.
	names, users, accounts, clusters, partitions []string
	defAccounts, descrs, orgs, types, ids        []string
	format                                       []string
	tree, withAssoc, onlyDefaults                bool
}

// mgrKey is a condition key: the fewest letters that name it, and where
// its values go.
type mgrKey struct {
	name string
	min  int
	dst  func(c *mgrCond) *[]string
}

var mgrKeys = []mgrKey{
	{"accounts", 2, func(c *mgrCond) *[]string { return &c.accounts }},
	{"acct", 4, func(c *mgrCond) *[]string { return &c.accounts }},
	{"clusters", 1, func(c *mgrCond) *[]string { return &c.clusters }},
	{"defaultaccount", 4, func(c *mgrCond) *[]string { return &c.defAccounts }},
	{"descriptions", 1, func(c *mgrCond) *[]string { return &c.descrs }},
	{"format", 1, func(c *mgrCond) *[]string { return &c.format }},
	{"ids", 2, func(c *mgrCond) *[]string { return &c.ids }},
	{"names", 1, func(c *mgrCond) *[]string { return &c.names }},
	{"organizations", 1, func(c *mgrCond) *[]string { return &c.orgs }},
	{"partitions", 3, func(c *mgrCond) *[]string { return &c.partitions }},
	{"type", 2, func(c *mgrCond) *[]string { return &c.types }},
	{"users", 1, func(c *mgrCond) *[]string { return &c.users }},
}

// parseMgrConds reads "[where] key=value ... [withassoc] [tree] names".
func parseMgrConds(w *output, ent *mgrEntity, args []string) (*mgrCond, int) {
	c := &mgrCond{w: w}
	for _, a := range args {
		key, val, isKV := strings.Cut(a, "=")
		lk := strings.ToLower(key)
		if !isKV {
			switch {
			case mgrIs(lk, "where", 5), mgrIs(lk, "withdeleted", 5), mgrIs(lk, "wopinfo", 4),
				mgrIs(lk, "wolimits", 3), mgrIs(lk, "woplimits", 4), mgrIs(lk, "withsubaccounts", 5),
				mgrIs(lk, "wosubaccounts", 3), mgrIs(lk, "set", 3):
				continue
			case mgrIs(lk, "withassocs", 5), mgrIs(lk, "associations", 5):
				c.withAssoc = true
				continue
			case mgrIs(lk, "tree", 4):
				c.tree = true
				continue
			case mgrIs(lk, "onlydefaults", 2):
				c.onlyDefaults = true
				continue
			case ent.names:
				c.names = addCharList(c.names, a)
				continue
			}
			return nil, mgrUnknownCond(w, ent, a)
		}
		k := mgrFindKey(ent, lk)
		if k == nil {
			return nil, mgrUnknownCond(w, ent, a)
		}
		dst := k.dst(c)
		if k.name == "format" {
			*dst = append(*dst, strings.Split(val, ",")...)
			continue
		}
		*dst = addCharList(*dst, val)
	}
	return c, 0
}

func mgrFindKey(ent *mgrEntity, lk string) *mgrKey {
	for i := range mgrKeys {
		k := &mgrKeys[i]
		if mgrIs(lk, k.name, k.min) && slices.Contains(ent.keys, k.name) {
			return k
		}
	}
	return nil
}

// mgrUnknownCond prints Slurm's text for a condition it does not know.
func mgrUnknownCond(w *output, ent *mgrEntity, arg string) int {
	w.raw(" Unknown condition: " + arg + "\n")
	if ent.setHint != "" {
		w.raw(" Use keyword 'set' to modify " + ent.setHint + "\n")
	}
	return 1
}

// mgrMatch reports whether v passes a filter (nil passes everything).
// The filter is lowercase and Slurm's database compares without case.
func mgrMatch(filter []string, v string) bool {
	return filter == nil || slices.Contains(filter, api.LowerASCII(v))
}

// mgrMatchFold is mgrMatch ignoring case.
func mgrMatchFold(filter []string, v string) bool {
	if filter == nil {
		return true
	}
	return slices.ContainsFunc(filter, func(f string) bool { return strings.EqualFold(f, v) })
}
