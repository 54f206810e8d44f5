package command

// squeueUsage is what squeue prints for --usage and after an unexpected
// argument, as Slurm prints it.
const squeueUsage = `Usage: squeue [-A account] [--clusters names] [-i seconds] [--job jobid]
              [-n name] [-o format] [-p partitions] [--qos qos]
              [--reservation reservation] [--sort fields] [--start]
              [--step step_id] [-t states] [-u user_name] [--usage]
              [-L licenses] [-w nodes] [--federation] [--local] [--sibling]
	      [-ahjlrsv]
`

const squeueHelp = `Usage: squeue [OPTIONS]
  -A, --account=account(s)        comma separated list of accounts
                                  to view, default is all accounts
  -a, --all                       display jobs in hidden partitions
      --array-unique              display one unique pending job array
                                  element per line
  -h, --noheader                  no headers on output
  -i, --iterate=seconds           print the queue again every SECONDS
  -j, --job=job(s)                comma separated list of jobs IDs
                                  to view, default is all
      --json                      Produce JSON output
  -l, --long                      long report
  -L, --licenses=(license names)  jobs using these licenses (Loam has none)
  -M, --clusters=cluster_name     refused: Loam serves one cluster
      --me                        show only my jobs (and, on stderr, where
                                  each pending one stands in its queue)
  -n, --name=job_name(s)          comma separated list of job names to view
      --noconvert                 don't convert units from their original type
                                  (e.g. 2048M won't be converted to 2G).
  -o, --format=format             format specification (%i %j %P %u %t ...);
                                  Loam adds %# (queue position)
  -O, --Format=format             format specification (Field[:[.]width],...);
                                  Loam adds position and estimatedstart
  -p, --partition=partition(s)    comma separated list of partitions
                                  to view, default is all partitions
  -P, --priority                  one line per job and partition
  -q, --qos=qos(s)                comma separated list of qos's
                                  to view, default is all qos's
  -R, --reservation=name          reservation to view, default is all
  -r, --array                     display one job array element per line
  -s, --step=step(s)              comma separated list of job steps
                                  to view, default is all
  -S, --sort=fields               comma separated list of fields to sort on
      --start                     print expected start times of pending jobs
                                  (Loam estimates every pending job)
  -t, --states=states             comma separated list of states to view,
                                  default is pending and running,
                                  '--states=all' reports all states
  -u, --user=user_name(s)         comma separated list of users to view
  -v, --verbose                   verbosity level
  -V, --version                   output version information and exit
  -w, --nodelist=hostlist         list of nodes to view, default is
                                  all nodes
      --yaml                      Produce YAML output

Help options:
  --help                          show this help message
  --usage                         display a brief summary of squeue options
`
