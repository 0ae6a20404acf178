# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ejctl_global_optspecs
    string join \n zk= namespace= context= digest= connect-timeout= o/output= y/yes v/verbose q/quiet h/help V/version
end

function __fish_ejctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ejctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ejctl_using_subcommand
    set -l cmd (__fish_ejctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ejctl -n "__fish_ejctl_needs_command" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_needs_command" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_needs_command" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_needs_command" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_needs_command" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "run" -d 'Run the jobs of one or more job files (the worker runtime)'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "job" -d 'Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "config" -d 'Read and change job configurations'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "server" -d 'Servers (IPs): list, disable, enable, shutdown, remove'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "instance" -d 'Live instances'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "sharding" -d 'Sharding items: show, disable, enable, and preview what a strategy assigns'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "failover" -d 'Failover items'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "context" -d 'Named registries (connect string, namespace, digest), like kubectl contexts'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "cron" -d 'Check cron expressions'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "dump" -d 'Print the registry tree (or one job\'s) with node values'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "man" -d 'Write the man pages into a directory'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l log-format -d 'Log format on stderr' -r -f -a "text\t'Human-readable lines'
json\t'One JSON object per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'List the jobs of the namespace'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the jobs of the namespace'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'Print a job\'s configuration'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "list" -d 'Print a job\'s configuration'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'List the servers (IPs) of the namespace'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the servers (IPs) of the namespace'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'List the live instances'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the live instances'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -f -a "plan" -d 'Preview what a sharding strategy assigns, without a registry'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from plan help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l strategy -d 'AVG_ALLOCATION, ODEVITY, ROUND_ROBIN or SINGLE_SHARDING_BALANCE' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l job-name -d 'The job name (ODEVITY, ROUND_ROBIN and SINGLE_SHARDING_BALANCE hash it)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l instances -d 'Instance ids, comma-separated (`ip@-@pid`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l total -d 'shardingTotalCount' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l keep-order -d 'Use the instances in the order given instead of ElasticJob\'s (reverse lexicographic)'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from help" -f -a "plan" -d 'Preview what a sharding strategy assigns, without a registry'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'List failover items of a job'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from help" -f -a "list" -d 'List failover items of a job'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'List the registry contexts'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the registry contexts'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -f -a "next" -d 'Print the next fire instants of a Quartz cron expression'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l time-zone -d 'Time zone: `GMT+8`, `GMT-05:30`, an IANA name such as `Asia/Shanghai`; default: local' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l after -d 'Start after this instant (RFC 3339); default: now' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s n -l count -d 'How many instants to print' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from help" -f -a "next" -d 'Print the next fire instants of a Quartz cron expression'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l addr -d 'Ask a worker\'s dump port (`dump@JOB` protocol) instead of reading the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l mask-ips -d 'Replace IPv4 addresses with ip1, ip2, ... (as ElasticJob\'s dump does)'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -l connect-timeout -d 'How long to wait for the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s o -l output -d 'Output format' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s v -l verbose -d 'More log output on stderr (repeat for more)'
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "run" -d 'Run the jobs of one or more job files (the worker runtime)'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "job" -d 'Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "config" -d 'Read and change job configurations'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "server" -d 'Servers (IPs): list, disable, enable, shutdown, remove'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "instance" -d 'Live instances'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "sharding" -d 'Sharding items: show, disable, enable, and preview what a strategy assigns'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "failover" -d 'Failover items'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "context" -d 'Named registries (connect string, namespace, digest), like kubectl contexts'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "cron" -d 'Check cron expressions'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "dump" -d 'Print the registry tree (or one job\'s) with node values'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "man" -d 'Write the man pages into a directory'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from job" -f -a "list" -d 'List the jobs of the namespace'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "list" -d 'Print a job\'s configuration'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from server" -f -a "list" -d 'List the servers (IPs) of the namespace'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from instance" -f -a "list" -d 'List the live instances'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from sharding" -f -a "plan" -d 'Preview what a sharding strategy assigns, without a registry'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from failover" -f -a "list" -d 'List failover items of a job'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "list" -d 'List the registry contexts'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from cron" -f -a "next" -d 'Print the next fire instants of a Quartz cron expression'
