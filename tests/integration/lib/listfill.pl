#!/usr/bin/perl
# listfill.pl — `pmukit list --json` on stdin: every hardware, software, tool,
# cache and tracepoint event carries a pmu and a desc (as perf's list -j gives
# them a Unit); cache events a PMU-qualified alias on CORE (argv[0]);
# tracepoints perf's encoding with the id tracefs gives (argv[1]: tracefs root,
# or empty). Prints how many were checked; exits 1 naming the first miss.
use strict;
use warnings;
use JSON::PP;

my ($core, $tracefs) = @ARGV;
my $doc = do { local $/; decode_json(<STDIN>) };
my %want = ('Hardware event' => $core, 'Software event' => 'software', 'Tool event' => 'tool',
	    'Hardware cache event' => $core, 'Tracepoint event' => 'tracepoint');
my ($n, $tp) = (0, 0);
for my $e (@$doc) {
	next unless $e->{kind} eq 'event' && exists $want{$e->{type}};
	my $w = $want{$e->{type}};
	die "$e->{name}: pmu '" . ($e->{pmu} // '') . "', want '$w'\n" unless ($e->{pmu} // '') eq $w;
	die "$e->{name}: no desc\n" unless length($e->{desc} // '');
	if ($e->{type} eq 'Hardware cache event') {
		die "$e->{name}: alias '" . ($e->{alias} // '') . "'\n" unless ($e->{alias} // '') eq "$core/$e->{name}/";
	}
	if ($e->{type} eq 'Tracepoint event' && $tracefs && $tp++ < 50) {
		my ($sys, $ev) = split /:/, $e->{name}, 2;
		open(my $f, '<', "$tracefs/events/$sys/$ev/id") or die "$e->{name}: no id file\n";
		my $id = <$f>;
		chomp $id;
		my $enc = sprintf('tracepoint/config=0x%x/', $id);
		die "$e->{name}: encoding '" . ($e->{encoding} // '') . "', want '$enc'\n"
		    unless ($e->{encoding} // '') eq $enc;
	}
	$n++;
}
print "$n\n";
exit 0;
