package command

import (
	"bufio"
	"context"
	"strings"
)

// sreportInteractive is sreport without a command: as Slurm's, it reads
// commands from standard input, each line shown after the "sreport: "
// prompt, until quit, exit or the end of the input (which gets a last,
// empty prompt). Its exit status is 1 once a command failed.
func sreportInteractive(ctx context.Context, env *Env, w *output, base *sreportParams) int {
	sc := bufio.NewScanner(env.Stdin)
	code := 0
	for sc.Scan() {
		line := sc.Text()
		w.printf("sreport: %s\n", line)
		w.flush() // the prompt before the command's errors
		words := strings.Fields(line)
		switch {
		case len(words) == 0:
			continue
		case abbrev(words[0], "quit", 1) || abbrev(words[0], "exit", 1):
			return code
		}
		p := *base // each command starts from the command line's options
		if runReport(ctx, env, w, &p, words) != 0 {
			code = 1
		}
		w.flush()
	}
	w.printf("sreport: \n")
	return code
}
