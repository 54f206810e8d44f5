package command

const sacctHelp = `sacct [<OPTION>]
     Loam keeps every job's accounting in its controller's history; sacct
     reads finished and live jobs from it.

     Valid <OPTION> values are:
     -a, --allusers:
                   Display jobs for all users. By default, only the
                   current user's jobs are displayed.
     -A, --accounts:
                   Use this comma separated list of accounts to select jobs
                   to display.
     -b, --brief:
                   Equivalent to '--format=jobid,state,exitcode'.
     -C, --constraints:
                   Comma separated list of constraints: select the jobs
                   whose requested constraints contain every one of them.
     --delimiter:
                   ASCII characters used to separate the fields when
                   specifying the -p or -P options. The default delimiter
                   is a '|'.
     -D, --duplicates:
                   Display every run of a requeued job, each in the state
                   it ended in. Without this option only the most recent
                   run of each job is displayed.
     -e, --helpformat:
                   Print a list of fields that can be specified with the
                   '--format' option
     -E, --endtime:
                   Select jobs eligible before this time.
     -h, --help:   Print this description of use.
     -j, --jobs:
                   Format is <job(.step)>. Display information about this
                   job or comma-separated list of jobs.
     -l, --long:
                   Equivalent to specifying the long list of fields.
     --name:
                   Display jobs that have any of these name(s).
     -n, --noheader:
                   No header will be added to the beginning of output.
     -N, --nodelist:
                   Display jobs that ran on any of these nodes.
     -o, --format:
                   Comma separated list of fields, each optionally
                   followed by %width (negative: left-justified).
     -p, --parsable: output will be '|' delimited with a '|' at the end
     -P, --parsable2: output will be '|' delimited without a '|' at the end
     -q, --qos:
                   Only send data about jobs using these qos.
     -r, --partition:
                   Comma separated list of partitions to select jobs and
                   job steps from.
     -s, --state:
                   Select jobs based on their state during the time period
                   given.
     -S, --starttime:
                   Select jobs eligible after this time. Default is 00:00:00
                   of the current day, unless '-s' or '-j' is given.
     -u, --uid, --user:
                   Use this comma separated list of user names or uids to
                   select jobs to display.
     -V, --version: Print version.
     -X, --allocations:
                   Only show statistics relevant to the job allocation
                   itself, not taking steps into consideration.
`
