package batchscript

import "bytes"

// The magic words of the other batch systems whose directives sbatch
// translates, in the order it tries them: a script with both kinds gets
// only its #BSUB lines read.
const (
	MagicBSUB = "#BSUB"
	MagicPBS  = "#PBS"
)

// maxForeignCommands is how many lines that do not start with "#" sbatch
// reads past while looking for #PBS or #BSUB lines: unlike #SBATCH lines,
// these may follow commands.
const maxForeignCommands = 100

// Foreign returns the arguments of the lines of body that start with magic
// (MagicBSUB or MagicPBS) as sbatch reads them for translation, all lines
// together as one argument vector; found tells whether any line (even an
// empty "#PBS") started with magic. The rules differ from #SBATCH's:
//   - the magic word counts in column one and in that case only, and may be
//     followed by anything ("#PBS-N x" is "-N x");
//   - reading goes on past commands and stops after the 101st line that does
//     not start with "#" (blank and indented lines count);
//   - arguments split as in #SBATCH lines (quotes, backslashes, "#"
//     comments, a "hetjob" word ends the line), with the same fatal errors.
//
// name is the script's base name, for the messages.
func Foreign(name, magic string, body []byte) (args []string, found bool, err error) {
	commands := 0
	for i, line := range bytes.Split(body, []byte("\n")) {
		if nul := bytes.IndexByte(line, 0); nul >= 0 {
			line = line[:nul] // sbatch reads each line as a C string
		}
		if !bytes.HasPrefix(line, []byte(magic)) {
			if len(line) == 0 || line[0] != '#' {
				commands++
			}
			if commands > maxForeignCommands {
				break
			}
			continue
		}
		found = true
		rest := string(line[len(magic):])
		for {
			arg, n, err := nextArgument(name, i+1, rest)
			if err != nil {
				return nil, false, err
			}
			if n < 0 {
				break
			}
			args = append(args, arg)
			rest = rest[n:]
		}
	}
	return args, found, nil
}
