import { describe, expect, it } from 'vitest';
import { isValidTwilioSignature, parseForm, twilioSignature } from './twilio-signature.ts';

/** The example of Twilio's security documentation and its helper libraries' own tests. */
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const paramsWith = (caller: string): Array<[string, string]> => [
  ['CallSid', 'CA1234567890ABCDE'],
  ['Caller', caller],
  ['Digits', '1234'],
  ['From', caller],
  ['To', '+18005551212'],
];

describe('X-Twilio-Signature', () => {
  it('matches the published examples (URL + sorted name/value pairs, HMAC-SHA1 with the auth token, base64)', () => {
    expect(twilioSignature('12345', URL_, paramsWith('+12349013030'))).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
    expect(twilioSignature('12345', URL_, paramsWith('+14158675310'))).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
    expect(twilioSignature('12345', URL_, paramsWith('+14158675309'))).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
  });

  it('sorts by name whatever order the form came in', () => {
    const shuffled = [...paramsWith('+14158675310')].reverse();
    expect(twilioSignature('12345', URL_, shuffled)).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
  });

  it('takes each distinct value of a repeated name, sorted', () => {
    const once = twilioSignature('t', 'https://x.test/a', [
      ['E', 'completed'],
      ['E', 'answered'],
      ['E', 'completed'],
    ]);
    expect(once).toBe(
      twilioSignature('t', 'https://x.test/a', [
        ['E', 'answered'],
        ['E', 'completed'],
      ]),
    );
    expect(once).not.toBe(twilioSignature('t', 'https://x.test/a', [['E', 'answered']]));
  });

  it('accepts the URL with or without its default port, and nothing else', () => {
    const signature = 'GvWf1cFY/Q7PnoempGyD5oXAezc=';
    const params = paramsWith('+14158675310');
    expect(isValidTwilioSignature('12345', signature, URL_, params)).toBe(true);
    expect(isValidTwilioSignature('12345', signature, 'https://mycompany.com:443/myapp.php?foo=1&bar=2', params)).toBe(
      true,
    );
    expect(isValidTwilioSignature('12345', signature, 'https://mycompany.com/myapp.php?foo=1&bar=3', params)).toBe(
      false,
    );
    expect(isValidTwilioSignature('12345', signature, 'http://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe(
      false,
    );
    expect(isValidTwilioSignature('54321', signature, URL_, params)).toBe(false);
    expect(isValidTwilioSignature('12345', signature, URL_, [...params, ['Extra', '']])).toBe(false);
    expect(isValidTwilioSignature('12345', `${signature} `, URL_, params)).toBe(false);
    expect(isValidTwilioSignature('12345', undefined, URL_, params)).toBe(false);
    expect(isValidTwilioSignature('12345', '', URL_, params)).toBe(false);
  });

  it('verifies what the form parser reads (percent-encoding and + decoded, order kept)', () => {
    const body = Buffer.from('To=%2B5511912345678&CallStatus=in-progress&Note=a+b%26c');
    expect(parseForm(body)).toEqual([
      ['To', '+5511912345678'],
      ['CallStatus', 'in-progress'],
      ['Note', 'a b&c'],
    ]);
  });
});
