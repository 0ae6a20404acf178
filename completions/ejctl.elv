
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
            cand dump 'Print the registry tree (or one job''s) with node values'
            cand completions 'Print a shell completion script'
            cand man 'Write the man pages into a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;dump'= {
            cand --addr 'Ask a worker''s dump port (`dump@JOB` protocol) instead of reading the registry'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
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
            cand dump 'Print the registry tree (or one job''s) with node values'
            cand completions 'Print a shell completion script'
            cand man 'Write the man pages into a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
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
