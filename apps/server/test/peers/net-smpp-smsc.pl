#!/usr/bin/perl
# An SMSC played by Net::SMPP (Debian's libnet-smpp-perl), an SMPP implementation nobody here
# wrote, for test/peers/net-smpp.test.ts. It listens on 127.0.0.1 (port 0: one the system picks,
# printed as "listening <port>"), takes one ESME's bind_transceiver, answers each submit_sm with
# an upper-case hex message id, and right away sends its delivery receipt as a deliver_sm with
# the Appendix B text (the id in decimal, as some SMSCs write it) and the receipted_message_id
# and message_state TLVs exactly as Net::SMPP writes optional parameters: the id without a NUL.
# Even submits are delivered, odd ones undeliverable (err 034). Prints one line per event.
use strict;
use warnings;
no warnings 'portable';  # ids above 32 bits
use Net::SMPP;

$| = 1;
my ($port, $first_id) = @ARGV;
my $listener = Net::SMPP->new_listen('127.0.0.1', port => $port // 0, smpp_version => 0x34)
  or die "cannot listen: $!";
print 'listening ', $listener->sockport, "\n";
# accept() gives up after Net::SMPP's connection timeout (5 s): wait as long as the server takes to start.
my $smsc;
$smsc = $listener->accept until $smsc;
undef $listener;

my $next_id = hex($first_id // '399005E1');
my $submits = 0;
while (my $pdu = $smsc->read_pdu()) {
  my $cmd = $pdu->{cmd};
  if ($cmd == Net::SMPP::CMD_bind_transceiver) {
    $smsc->set_version(0x34);
    $smsc->bind_transceiver_resp(system_id => 'NetSMPP', seq => $pdu->{seq});
    print "bound $pdu->{system_id}\n";
  } elsif ($cmd == Net::SMPP::CMD_enquire_link) {
    $smsc->enquire_link_resp(seq => $pdu->{seq});
  } elsif ($cmd == Net::SMPP::CMD_submit_sm) {
    my $value = $next_id++;
    my $id = sprintf('%X', $value);
    $smsc->submit_sm_resp(message_id => $id, seq => $pdu->{seq});
    my $delivered = $submits++ % 2 == 0;
    my ($stat, $err, $state) = $delivered ? ('DELIVRD', '000', 2) : ('UNDELIV', '034', 5);
    my $text = "id:$value sub:001 dlvrd:00" . ($delivered ? 1 : 0)
      . " submit date:2611261200 done date:2611261201 stat:$stat err:$err text:Oferta";
    $smsc->deliver_sm(
      async => 1,
      source_addr_ton => 1, source_addr_npi => 1, source_addr => $pdu->{destination_addr},
      dest_addr_ton => 0, dest_addr_npi => 0, destination_addr => $pdu->{source_addr},
      esm_class => 0x04, data_coding => 0, short_message => $text,
      receipted_message_id => $id,
      message_state => pack('C', $state),
    );
    print "submitted $id $stat\n";
  } elsif ($cmd == Net::SMPP::CMD_deliver_sm_resp) {
    print "receipt answered $pdu->{status}\n";
  } elsif ($cmd == Net::SMPP::CMD_unbind) {
    $smsc->unbind_resp(seq => $pdu->{seq});
    print "unbound\n";
    last;
  } else {
    $smsc->generic_nack(seq => $pdu->{seq}, status => 0x03);
  }
}
