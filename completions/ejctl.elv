
use builtin;
use str;

set edit:completion:arg-completer[ejctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ejctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ejctl'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand run 'Run the jobs of one or more job files (the worker runtime)'
            cand job 'Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove'
            cand config 'Read and change job configurations'
            cand server 'Servers (IPs): list, disable, enable, shutdown, remove'
            cand instance 'Live instances'
            cand sharding 'Sharding items: show, disable, enable, and preview what a strategy assigns'
            cand failover 'Failover items'
            cand context 'Named registries (connect string, namespace, digest), like kubectl contexts'
            cand cron 'Check cron expressions'
            cand dump 'Print the registry tree (or one job''s) with node values'
            cand completions 'Print a shell completion script'
            cand man 'Write the man pages into a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;run'= {
            cand --log-format 'Log format on stderr'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the jobs of the namespace'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;job;list'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job;help'= {
            cand list 'List the jobs of the namespace'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;job;help;list'= {
        }
        &'ejctl;job;help;help'= {
        }
        &'ejctl;config'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'Print a job''s configuration'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;config;list'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;config;help'= {
            cand list 'Print a job''s configuration'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;config;help;list'= {
        }
        &'ejctl;config;help;help'= {
        }
        &'ejctl;server'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the servers (IPs) of the namespace'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;server;list'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;server;help'= {
            cand list 'List the servers (IPs) of the namespace'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;server;help;list'= {
        }
        &'ejctl;server;help;help'= {
        }
        &'ejctl;instance'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the live instances'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;instance;list'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;instance;help'= {
            cand list 'List the live instances'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;instance;help;list'= {
        }
        &'ejctl;instance;help;help'= {
        }
        &'ejctl;sharding'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand plan 'Preview what a sharding strategy assigns, without a registry'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;sharding;plan'= {
            cand --strategy 'AVG_ALLOCATION, ODEVITY, ROUND_ROBIN or SINGLE_SHARDING_BALANCE'
            cand --job-name 'The job name (ODEVITY, ROUND_ROBIN and SINGLE_SHARDING_BALANCE hash it)'
            cand --instances 'Instance ids, comma-separated (`ip@-@pid`)'
            cand --total 'shardingTotalCount'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --keep-order 'Use the instances in the order given instead of ElasticJob''s (reverse lexicographic)'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;sharding;help'= {
            cand plan 'Preview what a sharding strategy assigns, without a registry'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;sharding;help;plan'= {
        }
        &'ejctl;sharding;help;help'= {
        }
        &'ejctl;failover'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List failover items of a job'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;failover;list'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;failover;help'= {
            cand list 'List failover items of a job'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;failover;help;list'= {
        }
        &'ejctl;failover;help;help'= {
        }
        &'ejctl;context'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the registry contexts'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;context;list'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;context;help'= {
            cand list 'List the registry contexts'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;context;help;list'= {
        }
        &'ejctl;context;help;help'= {
        }
        &'ejctl;cron'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand next 'Print the next fire instants of a Quartz cron expression'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;cron;next'= {
            cand --time-zone 'Time zone: `GMT+8`, `GMT-05:30`, an IANA name such as `Asia/Shanghai`; default: local'
            cand --after 'Start after this instant (RFC 3339); default: now'
            cand -n 'How many instants to print'
            cand --count 'How many instants to print'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;cron;help'= {
            cand next 'Print the next fire instants of a Quartz cron expression'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;cron;help;next'= {
        }
        &'ejctl;cron;help;help'= {
        }
        &'ejctl;dump'= {
            cand --addr 'Ask a worker''s dump port (`dump@JOB` protocol) instead of reading the registry'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --mask-ips 'Replace IPv4 addresses with ip1, ip2, ... (as ElasticJob''s dump does)'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;completions'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;man'= {
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --connect-timeout 'How long to wait for the registry'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand -v 'More log output on stderr (repeat for more)'
            cand --verbose 'More log output on stderr (repeat for more)'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;help'= {
            cand run 'Run the jobs of one or more job files (the worker runtime)'
            cand job 'Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove'
            cand config 'Read and change job configurations'
            cand server 'Servers (IPs): list, disable, enable, shutdown, remove'
            cand instance 'Live instances'
            cand sharding 'Sharding items: show, disable, enable, and preview what a strategy assigns'
            cand failover 'Failover items'
            cand context 'Named registries (connect string, namespace, digest), like kubectl contexts'
            cand cron 'Check cron expressions'
            cand dump 'Print the registry tree (or one job''s) with node values'
            cand completions 'Print a shell completion script'
            cand man 'Write the man pages into a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;help;run'= {
        }
        &'ejctl;help;job'= {
            cand list 'List the jobs of the namespace'
        }
        &'ejctl;help;job;list'= {
        }
        &'ejctl;help;config'= {
            cand list 'Print a job''s configuration'
        }
        &'ejctl;help;config;list'= {
        }
        &'ejctl;help;server'= {
            cand list 'List the servers (IPs) of the namespace'
        }
        &'ejctl;help;server;list'= {
        }
        &'ejctl;help;instance'= {
            cand list 'List the live instances'
        }
        &'ejctl;help;instance;list'= {
        }
        &'ejctl;help;sharding'= {
            cand plan 'Preview what a sharding strategy assigns, without a registry'
        }
        &'ejctl;help;sharding;plan'= {
        }
        &'ejctl;help;failover'= {
            cand list 'List failover items of a job'
        }
        &'ejctl;help;failover;list'= {
        }
        &'ejctl;help;context'= {
            cand list 'List the registry contexts'
        }
        &'ejctl;help;context;list'= {
        }
        &'ejctl;help;cron'= {
            cand next 'Print the next fire instants of a Quartz cron expression'
        }
        &'ejctl;help;cron;next'= {
        }
        &'ejctl;help;dump'= {
        }
        &'ejctl;help;completions'= {
        }
        &'ejctl;help;man'= {
        }
        &'ejctl;help;help'= {
        }
    ]
    $completions[$command]
}
