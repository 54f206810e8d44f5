package command

const sinfoUsage = `Usage: sinfo [-abdelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]
             [-S fields] [-o format] [-O Format] [--federation] [--local]
`

const sinfoHelp = `Usage: sinfo [OPTIONS]
  -a, --all                  show all partitions (including hidden and those
			     not accessible)
  -d, --dead                 show only non-responding nodes
  -e, --exact                group nodes only on exact match of configuration
  -h, --noheader             no headers on output
  -i, --iterate=seconds      specify an iteration period
      --json                 Produce JSON output
  -l, --long                 long output - displays more information
  -M, --clusters=names       refused: Loam serves one cluster
  -n, --nodes=NODES          report on specific node(s)
  -N, --Node                 Node-centric format
  --noconvert                don't convert units from their original type
			     (e.g. 2048M won't be converted to 2G).
  -o, --format=format        format specification
  -O, --Format=format        long format specification
  -p, --partition=PARTITION  report on specific partition
  -r, --responding           report only responding nodes
  -R, --list-reasons         list reason nodes are down or drained
  -s, --summarize            report state summary only
  -S, --sort=fields          comma separated list of fields to sort on
  -t, --states=node_state    specify the what states of nodes to view
  -v, --verbose              verbosity level
  -V, --version              output version information and exit
      --yaml                 Produce YAML output

Help options:
  --help                     show this help message
  --usage                    display brief usage message
`
