package jobopt

// ArgKind says whether an option takes a value, as getopt_long's has_arg.
type ArgKind int

// The three kinds of getopt_long options.
const (
	NoArg       ArgKind = iota // --hold
	RequiredArg                // --time=1:00, --time 1:00, -t1:00, -t 1:00
	OptionalArg                // --nice, --nice=5 (never --nice 5), -k, -kvalue
)

// Option is one entry of an option table: its names, its kind and what it
// does to the submission being built.
type Option struct {
	Long  string  // long name without "--"; "" for a short-only option
	Short byte    // short letter; 0 for a long-only option
	Arg   ArgKind //
	// Key identifies what the option sets. Two long names with the same Key
	// and Arg are one option to getopt (--tasks-per-node is
	// --ntasks-per-node), so a prefix of both is not ambiguous. Defaults to
	// Long.
	Key string
	// Early options act in the first pass over the command line only
	// (--help, --wrap, -v, -Q): sbatch skips them in scripts.
	Early bool
	// LoamOnly marks an option Slurm's command lacks; see LongName.
	LoamOnly bool
	// Env lists the environment variables that set the option.
	Env []string
	// set applies a value; nil for options Loam accepts and ignores.
	set func(b *builder, v value) error
}

// value is one occurrence of an option.
type value struct {
	str   string
	has   bool   // a value was given (always for RequiredArg)
	reset bool   // an environment variable turned a flag off
	src   source // where it came from
	name  string // how to name the option in messages
}

// source is where an option occurrence came from.
type source int

const (
	fromArgv source = iota
	fromScript
	fromEnv
)

func (o *Option) key() string {
	if o.Key != "" {
		return o.Key
	}
	return o.Long
}

// Table is an ordered option table. Order matters as it does to getopt:
// ambiguous prefixes list their possibilities in table order.
type Table struct {
	opts  []*Option
	longs []LongName // opts' long names, for MatchLong
}

// NewTable builds a table from options in the given order. Tables for other
// commands (srun, salloc) are built from SbatchOptions by dropping and
// adding options.
func NewTable(opts []Option) *Table {
	t := &Table{}
	for i := range opts {
		o := opts[i]
		t.opts = append(t.opts, &o)
		t.longs = append(t.longs, LongName{Long: o.Long, Same: SameOption(o.key(), int(o.Arg)), LoamOnly: o.LoamOnly})
	}
	return t
}

// Options returns a copy of the table's options, in order.
func (t *Table) Options() []Option {
	out := make([]Option, len(t.opts))
	for i, o := range t.opts {
		out[i] = *o
	}
	return out
}

func (t *Table) short(c byte) *Option {
	for _, o := range t.opts {
		if o.Short == c && c != 0 {
			return o
		}
	}
	return nil
}
