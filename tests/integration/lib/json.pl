#!/usr/bin/perl
# json.pl — check fields of a JSON document: json.pl FILE PATH=VALUE...
# PATH is dot-separated keys and array indexes ("0.attr.config"); VALUE is
# compared as a string (JSON true/false as 1/0). Exits 1 naming the first miss.
use strict;
use warnings;
use JSON::PP;

my $file = shift;
open(my $f, '<', $file) or die "$file: $!";
my $doc = do { local $/; decode_json(<$f>) };
for my $check (@ARGV) {
	my ($path, $want) = split /=/, $check, 2;
	my $v = $doc;
	for my $k (split /\./, $path) {
		if (ref $v eq 'ARRAY') { $v = $v->[$k]; }
		elsif (ref $v eq 'HASH') { $v = $v->{$k}; }
		else { $v = undef; }
		last unless defined $v;
	}
	$v = $v ? 1 : 0 if JSON::PP::is_bool($v);
	if (!defined $v || "$v" ne $want) {
		print STDERR "$path: got ", (defined $v ? "'$v'" : 'nothing'), ", want '$want'\n";
		exit 1;
	}
}
exit 0;
