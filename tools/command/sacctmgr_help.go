package command

// sacctmgrHelp is sacctmgr --help: Slurm's options, and what Loam's
// sacctmgr reads.
const sacctmgrHelp = `sacctmgr [<OPTION>] [<COMMAND>]
    Valid <OPTION> values are:
     -h or --help: equivalent to "help" command
     -i or --immediate: commit changes immediately
     -n or --noheader: no header will be added to the beginning of output
     -o or --oneliner: equivalent to "oneliner" command
     -p or --parsable: output will be '|' delimited with a '|' at the end
     -P or --parsable2: output will be '|' delimited without a '|' at the end
     -Q or --quiet: equivalent to "quiet" command
     -r or --readonly: equivalent to "readonly" command
     -s or --associations: equivalent to "associations" command
     -v or --verbose: equivalent to "verbose" command
     -V or --version: equivalent to "version" command

  Valid <COMMAND> values are:
     list <ENTITY> [<SPECS>]  display info of identified entity, default
                              is display all.
     show                     same as list
     help                     print this description of use.
     version                  display tool version number.

  <ENTITY> may be "account", "association", "cluster", "qos", "tres"
  or "user".

  Loam reads accounts, users and their limits from tenants.conf: add,
  modify, delete, archive, dump and load are refused; edit tenants.conf
  and run 'scontrol reconfigure'.
`
