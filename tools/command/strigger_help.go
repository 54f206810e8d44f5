package command

// striggerHelp is Slurm 22.05's strigger --help text (the trailing space
// after "DOWN" is Slurm's).
const striggerHelp = `Usage: strigger [--set | --get | --clear] [OPTIONS]
      --set           create a trigger
      --get           get trigger information
      --clear         delete a trigger

      --burst_buffer  trigger event on burst buffer error
      --front_end     trigger event on FrontEnd node state changes
  -a, --primary_slurmctld_failure
                      trigger event when primary slurmctld fails
  -A, --primary_slurmctld_resumed_operation
                      trigger event on primary slurmctld resumed operation
                      after failure
  -b, --primary_slurmctld_resumed_control
                      trigger event on primary slurmctld resumed control
  -B, --backup_slurmctld_failure
                      trigger event when backup slurmctld fails
  -c, --backup_slurmctld_resumed_operation
                      trigger event when backup slurmctld resumed operation
                      after failure
  -C, --backup_slurmctld_assumed_control
                      trigger event when backup slurmctld assumed control
  -d, --down          trigger event when node goes DOWN
  -D, --drained       trigger event when node becomes DRAINED
  -e, --primary_slurmctld_acct_buffer_full
                      trigger event when primary slurmctld acct buffer full
  -F, --fail          trigger event when node is expected to FAIL
  -f, --fini          trigger event when job finishes
      --flags=perm    trigger event flag (perm = permanent)

  -g, --primary_slurmdbd_failure
                      trigger when primary slurmdbd fails
  -G, --primary_slurmdbd_resumed_operation
                      trigger when primary slurmdbd resumed operation after
                      failure
  -h, --primary_database_failure
                      trigger when primary database fails
  -H, --primary_database_resumed_operation
                      trigger when primary database resumed operation after
                      failure
  -i, --id=#          a trigger's ID number
  -I, --idle          trigger event when node remains IDLE
  -j, --jobid=#       trigger related to specific jobid
  -M, --cluster=name  cluster to issue commands to.  Default is
                      current cluster.  cluster with no name will
                      reset to default.
                      NOTE: SlurmDBD must up.
  -n, --node[=host]   trigger related to specific node, all nodes by default
  -N, --noheader      Do not print the message header
  -o, --offset=#      trigger's offset time from event, negative to precede
  -p, --program=path  pathname of program to execute when triggered
  -Q, --quiet         quiet mode (suppress informational messages)
  -r, --reconfig      trigger event on configuration changes
  -t, --time          trigger event on job's time limit
  -u, --up            trigger event when node returned to service from DOWN 
                      state
      --user          a user name or ID to filter triggers by
  -v, --verbose       print detailed event logging
  -V, --version       print version information and exit

Help options:
  --help              show this help message
  --usage             display brief usage message
`

const striggerUsage = "Usage: strigger [--set | --get | --clear | --version] [-aAbBcCdDefFgGhHiIjnNopQrtuv]\n"
