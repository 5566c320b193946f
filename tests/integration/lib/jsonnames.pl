#!/usr/bin/perl
# jsonnames.pl — read `pmukit list --json` from stdin, check it is one JSON array
# of objects with the contract's fields, print "event NAME" / "metric NAME" for
# table events and metrics.
use strict;
use warnings;
use JSON::PP;

local $/;
my $a = JSON::PP->new->decode(<STDIN>);
die "not an array\n" unless ref $a eq 'ARRAY';
for my $o (@$a) {
	my $k = $o->{kind} // die "no kind\n";
	if ($k eq 'event') {
		defined $o->{$_} or die "event without $_: $o->{name}\n" for qw(name topic);
		next unless ($o->{type} // '') eq 'table';
		defined $o->{$_} or die "table event without $_: $o->{name}\n" for qw(pmu encoding);
		print "event $o->{name}\n";
	} elsif ($k eq 'metric') {
		defined $o->{$_} or die "metric without $_\n" for qw(name expr groups);
		ref $o->{groups} eq 'ARRAY' or die "groups not an array\n";
		print "metric $o->{name}\n";
	} else {
		die "bad kind $k\n";
	}
}
