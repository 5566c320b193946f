#!/usr/bin/perl
# names.pl — an independent oracle for `pmukit list --json --all`: reads a model's
# JSON files directly (perl's core JSON::PP) and prints the event and metric
# names perf would build from them, one per line ("event NAME" / "metric NAME").
#   names.pl ARCH_DIR ARCH MODEL
use strict;
use warnings;
use JSON::PP;

my ($root, $arch, $model) = @ARGV;
my $json = JSON::PP->new->relaxed;
sub load { local $/; open(my $f, '<', $_[0]) or die "$_[0]: $!"; return $json->decode(<$f>); }

my %std;	# arch standard events by lower-cased name
opendir(my $d, "$root/$arch") or die;
for my $f (grep { /\.json$/ && -f "$root/$arch/$_" } readdir $d) {
	for my $e (@{ load("$root/$arch/$f") }) {
		$std{lc $e->{EventName}} = $e if $e->{EventName};
	}
}
opendir($d, "$root/$arch/$model") or die "$root/$arch/$model: $!";
for my $f (sort grep { /\.json$/ && $_ ne 'metricgroups.json' } readdir $d) {
	for my $e (@{ load("$root/$arch/$model/$f") }) {
		my $name = $e->{EventName};
		if (!$name && $e->{ArchStdEvent}) {
			my $s = $std{lc $e->{ArchStdEvent}} or die "no std event $e->{ArchStdEvent}";
			$name = $s->{EventName};
		}
		print "event ", lc $name, "\n" if $name;
		print "metric $e->{MetricName}\n" if $e->{MetricName};
	}
}
