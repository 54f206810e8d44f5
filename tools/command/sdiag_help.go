package command

// sdiagHelp is Slurm 22.05's sdiag --help text.
const sdiagHelp = `Usage: sdiag [OPTIONS]
  -a, --all           all statistics
  -r, --reset         reset statistics
  -M, --cluster       direct the request to a specific cluster
  -i, --sort-by-id    sort RPCs by id
  -t, --sort-by-time  sort RPCs by total run time
  -T, --sort-by-time2 sort RPCs by average run time
  -V, --version       display current version number

Help options:
  --help          show this help message
  --usage         display brief usage message
`

const sdiagUsage = "Usage: sdiag [-M cluster] [-aritT]\n"
