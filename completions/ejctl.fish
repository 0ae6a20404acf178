# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ejctl_global_optspecs
    string join \n zk= namespace= digest= connect-timeout= o/output= y/yes v/verbose q/quiet h/help V/version
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
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "dump" -d 'Print the registry tree (or one job\'s) with node values'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "man" -d 'Write the man pages into a directory'
complete -c ejctl -n "__fish_ejctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l addr -d 'Ask a worker\'s dump port (`dump@JOB` protocol) instead of reading the registry' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l zk -d 'ZooKeeper connect string' -r
complete -c ejctl -n "__fish_ejctl_using_subcommand dump" -l namespace -d 'Registry namespace (the ZooKeeper chroot the jobs live under)' -r
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
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from dump completions man help" -f -a "dump" -d 'Print the registry tree (or one job\'s) with node values'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from dump completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from dump completions man help" -f -a "man" -d 'Write the man pages into a directory'
complete -c ejctl -n "__fish_ejctl_using_subcommand help; and not __fish_seen_subcommand_from dump completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
