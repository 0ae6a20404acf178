# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ejctl_global_optspecs
    string join \n zk= namespace= context= digest= tls-ca= tls-cert= tls-key= connect-timeout= o/output= no-headers sort-by= y/yes v/verbose q/quiet h/help V/version
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

complete -c ejctl -n "__fish_ejctl_needs_command" -l zk -d '`--zk` before the command' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -l namespace -d '`--namespace` before the command' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -l context -d '`--context` before the command' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -l digest -d '`--digest` before the command' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -l tls-ca -d '`--tls-ca` before the command' -r -F
complete -c ejctl -n "__fish_ejctl_needs_command" -l tls-cert -d '`--tls-cert` before the command' -r -F
complete -c ejctl -n "__fish_ejctl_needs_command" -l tls-key -d '`--tls-key` before the command' -r -F
complete -c ejctl -n "__fish_ejctl_needs_command" -l connect-timeout -d '`--connect-timeout` before the command' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -s o -l output -d '`--output` before the command' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_needs_command" -l sort-by -d '`--sort-by` before the command' -r
complete -c ejctl -n "__fish_ejctl_needs_command" -l no-headers -d '`--no-headers` before the command'
complete -c ejctl -n "__fish_ejctl_needs_command" -s y -l yes -d '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
complete -c ejctl -n "__fish_ejctl_needs_command" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
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
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "history" -d 'Runs of a job from the trace store: fire, item, instance, start, duration, result'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "why" -d 'Why a job (or item) did not run, or will not run next; with evidence and the fix'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "console" -d 'A live full-screen console of the namespace: views, filters, actions with confirmations'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "man" -d 'Write the man pages into a directory'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l ip -d 'The IPv4 address in this worker\'s instance id (`IP@-@PID`); overrides `[instance] ip`' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l log-format -d 'Log format on stderr' -r -f -a "text\t'Human-readable lines'
json\t'One JSON object per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand run" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -s y -l yes -d '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -f -a "list" -d 'List the jobs of the namespace: status, cron, next fire, instances, items, description'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -f -a "show" -d 'Show one job: configuration, servers, instances, sharding, failover and leader'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -f -a "trigger" -d 'Trigger a job now on every live instance; --wait follows the items until they finish'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -f -a "disable" -d 'Disable a job on every server, or on one with --server (its items move elsewhere)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -f -a "enable" -d 'Enable a job on every server, or on one with --server'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -f -a "pause" -d 'Pause a job: the same as disable (ElasticJob 3.x folded 2.x\'s pause into DISABLED)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -f -a "resume" -d 'Resume a job: the same as enable'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -f -a "shutdown" -d 'Shut a job\'s instances down (all, or those of one server); they stay down until restarted'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -f -a "remove" -d 'Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and not __fish_seen_subcommand_from list show trigger disable enable pause resume shutdown remove help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s w -l watch -d 'Redraw after every change in the registry (ZooKeeper watches, no polling); Ctrl-C ends'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l show-secrets -d 'Show the secrets of the configuration (`email.password`, `dingtalk.secret`, tokens in webhook URLs) instead of `****`'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l timeout -d 'How long --wait waits (ms, s, m, h)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l wait -d 'Wait until every item of this fire has finished and print per-item results'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from trigger" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l server -l ip -d 'Only this server (IPv4 address)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from disable" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l server -l ip -d 'Only this server (IPv4 address)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from enable" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l server -l ip -d 'Only this server (IPv4 address)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from pause" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l server -l ip -d 'Only this server (IPv4 address)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from resume" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l server -l ip -d 'Only this server (IPv4 address)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from shutdown" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l server -l ip -d 'Only this server (IPv4 address)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l purge -d 'Delete the whole job tree, configuration included'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the jobs of the namespace: status, cron, next fire, instances, items, description'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one job: configuration, servers, instances, sharding, failover and leader'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "trigger" -d 'Trigger a job now on every live instance; --wait follows the items until they finish'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "disable" -d 'Disable a job on every server, or on one with --server (its items move elsewhere)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "enable" -d 'Enable a job on every server, or on one with --server'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "pause" -d 'Pause a job: the same as disable (ElasticJob 3.x folded 2.x\'s pause into DISABLED)'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "resume" -d 'Resume a job: the same as enable'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "shutdown" -d 'Shut a job\'s instances down (all, or those of one server); they stay down until restarted'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job'
complete -c ejctl -n "__fish_ejctl_using_subcommand job; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -s y -l yes -d '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -f -a "get" -d 'Print a job\'s configuration YAML as stored, its secrets masked unless --show-secrets'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -f -a "set" -d 'Change configuration keys, validated and written with a version check'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -f -a "edit" -d 'Edit a job\'s configuration in $VISUAL / $EDITOR, validated and written with a version check'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -f -a "apply" -d 'Write the configurations of job files to the registry (created, updated or unchanged)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -f -a "diff" -d 'Show what `config apply` would change (or how two job files differ); exit 1 on a difference'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and not __fish_seen_subcommand_from get set edit apply diff help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l show-secrets -d 'Show the secrets (`email.password`, `dingtalk.secret`, tokens in webhook URLs) instead of `****`: the output can then be written back with `config set` or `config apply`'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from edit" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from apply" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l files -d 'Compare the jobs of two job files with each other instead of with the registry'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from diff" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "get" -d 'Print a job\'s configuration YAML as stored, its secrets masked unless --show-secrets'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "set" -d 'Change configuration keys, validated and written with a version check'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Edit a job\'s configuration in $VISUAL / $EDITOR, validated and written with a version check'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "apply" -d 'Write the configurations of job files to the registry (created, updated or unchanged)'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "diff" -d 'Show what `config apply` would change (or how two job files differ); exit 1 on a difference'
complete -c ejctl -n "__fish_ejctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -s y -l yes -d '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -f -a "list" -d 'List the servers (IPs) of the namespace with their instances and jobs'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -f -a "show" -d 'Show one server: its jobs, their status there, its instances and their items'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -f -a "disable" -d 'Disable every job on a server: its instances get no items'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -f -a "enable" -d 'Enable every job on a server'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -f -a "shutdown" -d 'Shut down every job instance on a server (the processes stop their jobs until restarted)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -f -a "remove" -d 'Shut a server\'s instances down and delete its servers/{ip} node from every job'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -f -a "prune" -d 'List the servers/{ip} nodes nothing uses any more (no live instance, no sharding item on that IP, not disabled), across every job; with --yes, delete them'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and not __fish_seen_subcommand_from list show disable enable shutdown remove prune help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from disable" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from enable" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from shutdown" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l older-than -d 'Only servers whose node was not written during this long (e.g. 0s, 10m, 1h): a server just registering writes its node before its instance' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -s y -l yes -d 'Answer yes to confirmations (needed without a terminal)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from prune" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the servers (IPs) of the namespace with their instances and jobs'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one server: its jobs, their status there, its instances and their items'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from help" -f -a "disable" -d 'Disable every job on a server: its instances get no items'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from help" -f -a "enable" -d 'Enable every job on a server'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from help" -f -a "shutdown" -d 'Shut down every job instance on a server (the processes stop their jobs until restarted)'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Shut a server\'s instances down and delete its servers/{ip} node from every job'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from help" -f -a "prune" -d 'List the servers/{ip} nodes nothing uses any more (no live instance, no sharding item on that IP, not disabled), across every job; with --yes, delete them'
complete -c ejctl -n "__fish_ejctl_using_subcommand server; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list show help" -s y -l yes -d '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list show help" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list show help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list show help" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list show help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list show help" -f -a "list" -d 'List the live instances of every job, or of one job'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list show help" -f -a "show" -d 'Show one instance (`IP@-@PID`): the jobs it runs, leadership and owned items'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and not __fish_seen_subcommand_from list show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the live instances of every job, or of one job'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one instance (`IP@-@PID`): the jobs it runs, leadership and owned items'
complete -c ejctl -n "__fish_ejctl_using_subcommand instance; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from show disable enable plan help" -s y -l yes -d '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from show disable enable plan help" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from show disable enable plan help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from show disable enable plan help" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from show disable enable plan help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from show disable enable plan help" -f -a "show" -d 'Show a job\'s items: owner, server IP, status, failover owner, disabled'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from show disable enable plan help" -f -a "disable" -d 'Disable sharding items: their owners skip them until they are enabled again'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from show disable enable plan help" -f -a "enable" -d 'Enable sharding items that were disabled'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from show disable enable plan help" -f -a "plan" -d 'Preview what a sharding strategy assigns, without a registry'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and not __fish_seen_subcommand_from show disable enable plan help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -s w -l watch -d 'Redraw after every change in the job\'s tree (ZooKeeper watches, no polling); Ctrl-C ends'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from disable" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from enable" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l strategy -d 'AVG_ALLOCATION, ODEVITY, ROUND_ROBIN or SINGLE_SHARDING_BALANCE' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l job-name -d 'The job name (ODEVITY, ROUND_ROBIN and SINGLE_SHARDING_BALANCE hash it); default: empty' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l instances -d 'Instance ids, comma-separated (`ip@-@pid`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l total -d 'shardingTotalCount (1 to 10000, as in a job configuration)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l keep-order -d 'Use the instances in the order given instead of ElasticJob\'s (reverse lexicographic)'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from plan" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show a job\'s items: owner, server IP, status, failover owner, disabled'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from help" -f -a "disable" -d 'Disable sharding items: their owners skip them until they are enabled again'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from help" -f -a "enable" -d 'Enable sharding items that were disabled'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from help" -f -a "plan" -d 'Preview what a sharding strategy assigns, without a registry'
complete -c ejctl -n "__fish_ejctl_using_subcommand sharding; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s y -l yes -d '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'List pending failover items and the instances failing items over now, of every job or one'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from help" -f -a "list" -d 'List pending failover items and the instances failing items over now, of every job or one'
complete -c ejctl -n "__fish_ejctl_using_subcommand failover; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -s y -l yes -d '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -f -a "list" -d 'List the registry contexts; `*` marks the current one'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -f -a "show" -d 'Show one context (default: the one in use)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -f -a "set" -d 'Create or update a context from --zk, --namespace, --digest, --connect-timeout, --tls-* and --trace'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -f -a "use" -d 'Make a context the current one'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -f -a "delete" -d 'Delete a context (and clear the current context if it was that one)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and not __fish_seen_subcommand_from list show set use delete help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from show" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from show" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from show" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from show" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l trace -d 'The trace store `ejctl history` and `ejctl why` read in this context: a SQLite file or a postgres:// URL (`\'\'` removes it)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l use -d 'Also make it the current context'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from use" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from use" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from use" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from use" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from use" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from use" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from use" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from use" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from delete" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from delete" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from delete" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the registry contexts; `*` marks the current one'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one context (default: the one in use)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "set" -d 'Create or update a context from --zk, --namespace, --digest, --connect-timeout, --tls-* and --trace'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "use" -d 'Make a context the current one'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete a context (and clear the current context if it was that one)'
complete -c ejctl -n "__fish_ejctl_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s y -l yes -d '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -f -a "next" -d 'Print the next fire instants of a Quartz cron expression'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and not __fish_seen_subcommand_from next help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l time-zone -d 'Time zone: `GMT+8`, `GMT-05:30`, an IANA name such as `Asia/Shanghai`; default: local' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l after -d 'Start after this instant (RFC 3339); default: now' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s n -l count -d 'How many instants to print (1 to 1000)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from next" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from help" -f -a "next" -d 'Print the next fire instants of a Quartz cron expression'
complete -c ejctl -n "__fish_ejctl_using_subcommand cron; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l addr -d 'Ask a worker\'s dump port (`dump@JOB` protocol) instead of reading the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l mask-ips -d 'Replace IPv4 addresses with ip1, ip2, ... (as ElasticJob\'s dump does)'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l elasticjob -d 'Print ElasticJob\'s dump lines (`path | value`), as a Java worker\'s dump port answers'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l show-secrets -d 'Show the secrets of job configurations (`email.password`, `dingtalk.secret`, tokens in webhook URLs) instead of `****`'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l item -d 'Only this sharding item' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l since -d 'Only runs that started within this long (`30m`, `2h`, `7d`) or since this time (RFC 3339, or `YYYY-MM-DD HH:MM:SS` local)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l source -d 'Only runs of this source' -r -f -a "cron\t'Cron fires'
trigger\t'Manual triggers'
misfire\t'Re-runs of fires missed while the item was busy'
failover\t'Runs of items taken over from a dead instance'"
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -s n -l limit -d 'At most this many runs (newest first)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l trace -d 'The trace store: a SQLite file or a postgres:// URL (default: the workers\' default SQLite file on this machine)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l job-file -d 'Take the trace store from the trace table of this job file' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l failed -d 'Only runs that failed or were killed'
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l output-tail -d 'Print the captured output of the item\'s last run (needs --item)'
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand history" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l item -d 'Only this sharding item' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l fire -d 'Account for this past fire: was it run in time, late (and why), or not (RFC 3339; `YYYY-MM-DD HH:MM:SS` or a time of day `HH:MM[:SS]` in the job\'s time zone, a time of day being its latest occurrence; or a duration ago such as `10m`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l trace -d 'The trace store: a SQLite file or a postgres:// URL (default: the workers\' default SQLite file on this machine)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l job-file -d 'Take the trace store from the trace table of this job file' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -s o -l output -d 'Output format (`wide`: a table with every column)' -r -f -a "table\t'Tables and trees for people; the layout may change between releases'
wide\t'Tables with every column'
boxes\t'Tables with borders'
json\t'One JSON object per invocation; field names are stable (see the README)'
yaml\t'The same document as JSON, in YAML'
plain\t'Tab-separated rows without a header, one record per line'"
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l sort-by -d 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -l no-headers -d 'Tables and plain rows without the header line'
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ejctl -n "__fish_ejctl_using_subcommand why" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -l snapshot -d 'Print one frame of the jobs view, COLS wide and ROWS high, as plain text after the first read of the namespace, and exit' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -l context -d 'Use a named registry from the contexts file (see `ejctl context`)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -l digest -d 'Digest credentials for a registry that uses ACLs' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -l tls-ca -d 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -l tls-cert -d 'Client certificate (PEM) for ZooKeeper\'s x509 authentication over TLS' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -l tls-key -d 'The client certificate\'s private key (PEM)' -r -F
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -l connect-timeout -d 'How long to wait for the registry (default 5s)' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -l readonly -d 'Refuse every write: action keys only say why (a context may also say `readonly = true`)'
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -s y -l yes -d '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand console" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s y -l yes -d 'Accepted for scripts and ignored: this command never asks for confirmation'
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s v -l verbose -d 'More log output on stderr (repeat for more); `-v` names the registry a command used'
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s q -l quiet -d 'Only errors on stderr'
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s h -l help -d 'Print help'
complete -c ejctl -n "__fish_ejctl_using_subcommand man" -s V -l version -d 'Print version'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "run" -d 'Run the jobs of one or more job files (the worker runtime)'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "job" -d 'Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "config" -d 'Read and change job configurations'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "server" -d 'Servers (IPs): list, disable, enable, shutdown, remove'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "instance" -d 'Live instances'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "sharding" -d 'Sharding items: show, disable, enable, and preview what a strategy assigns'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "failover" -d 'Failover items'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "context" -d 'Named registries (connect string, namespace, digest), like kubectl contexts'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "cron" -d 'Check cron expressions'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "dump" -d 'Print the registry tree (or one job\'s) with node values'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "history" -d 'Runs of a job from the trace store: fire, item, instance, start, duration, result'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "why" -d 'Why a job (or item) did not run, or will not run next; with evidence and the fix'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "console" -d 'A live full-screen console of the namespace: views, filters, actions with confirmations'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "man" -d 'Write the man pages into a directory'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from run job config server instance sharding failover context cron dump history why console completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from job" -f -a "list" -d 'List the jobs of the namespace: status, cron, next fire, instances, items, description'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from job" -f -a "show" -d 'Show one job: configuration, servers, instances, sharding, failover and leader'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from job" -f -a "trigger" -d 'Trigger a job now on every live instance; --wait follows the items until they finish'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from job" -f -a "disable" -d 'Disable a job on every server, or on one with --server (its items move elsewhere)'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from job" -f -a "enable" -d 'Enable a job on every server, or on one with --server'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from job" -f -a "pause" -d 'Pause a job: the same as disable (ElasticJob 3.x folded 2.x\'s pause into DISABLED)'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from job" -f -a "resume" -d 'Resume a job: the same as enable'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from job" -f -a "shutdown" -d 'Shut a job\'s instances down (all, or those of one server); they stay down until restarted'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from job" -f -a "remove" -d 'Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "get" -d 'Print a job\'s configuration YAML as stored, its secrets masked unless --show-secrets'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "set" -d 'Change configuration keys, validated and written with a version check'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "edit" -d 'Edit a job\'s configuration in $VISUAL / $EDITOR, validated and written with a version check'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "apply" -d 'Write the configurations of job files to the registry (created, updated or unchanged)'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "diff" -d 'Show what `config apply` would change (or how two job files differ); exit 1 on a difference'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from server" -f -a "list" -d 'List the servers (IPs) of the namespace with their instances and jobs'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from server" -f -a "show" -d 'Show one server: its jobs, their status there, its instances and their items'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from server" -f -a "disable" -d 'Disable every job on a server: its instances get no items'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from server" -f -a "enable" -d 'Enable every job on a server'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from server" -f -a "shutdown" -d 'Shut down every job instance on a server (the processes stop their jobs until restarted)'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from server" -f -a "remove" -d 'Shut a server\'s instances down and delete its servers/{ip} node from every job'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from server" -f -a "prune" -d 'List the servers/{ip} nodes nothing uses any more (no live instance, no sharding item on that IP, not disabled), across every job; with --yes, delete them'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from instance" -f -a "list" -d 'List the live instances of every job, or of one job'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from instance" -f -a "show" -d 'Show one instance (`IP@-@PID`): the jobs it runs, leadership and owned items'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from sharding" -f -a "show" -d 'Show a job\'s items: owner, server IP, status, failover owner, disabled'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from sharding" -f -a "disable" -d 'Disable sharding items: their owners skip them until they are enabled again'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from sharding" -f -a "enable" -d 'Enable sharding items that were disabled'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from sharding" -f -a "plan" -d 'Preview what a sharding strategy assigns, without a registry'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from failover" -f -a "list" -d 'List pending failover items and the instances failing items over now, of every job or one'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "list" -d 'List the registry contexts; `*` marks the current one'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "show" -d 'Show one context (default: the one in use)'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "set" -d 'Create or update a context from --zk, --namespace, --digest, --connect-timeout, --tls-* and --trace'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "use" -d 'Make a context the current one'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "delete" -d 'Delete a context (and clear the current context if it was that one)'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and __fish_seen_subcommand_from cron" -f -a "next" -d 'Print the next fire instants of a Quartz cron expression'
