import { describe, expect, it } from 'vitest';
import { narrativeText } from '../../../src/adapters/ehr-fhir/narrative.js';
import { EhrError } from '../../../src/domain/ehr-error.js';

const div = (inner: string): string => `<div xmlns="http://www.w3.org/1999/xhtml">${inner}</div>`;

describe('FHIR narrative to text', () => {
  it.each([
    // The four rows of the contract's table.
    ['Söker för … 38,5 &#176;C.<br/>Ingen andnöd … 2,4 &amp; stabilt.', 'Söker för … 38,5 °C.\nIngen andnöd … 2,4 & stabilt.'],
    ['Pulm: ronki bilateralt.  SaO2 95 %  &lt;i vila&gt; &amp; utan syrgas.', 'Pulm: ronki bilateralt.  SaO2 95 %  <i vila> & utan syrgas.'],
    ['Dos: &lt;5 mg per dygn', 'Dos: <5 mg per dygn'],
    ['<p>Patienten ringer om fortsatt hosta.</p><p>Råd: vila, drick mycket.  Ny kontakt vid &gt;38,5 &#176;C.</p>',
      'Patienten ringer om fortsatt hosta.\nRåd: vila, drick mycket.  Ny kontakt vid >38,5 °C.'],
  ])('%s', (inner, text) => {
    expect(narrativeText(div(inner))).toBe(text);
  });

  it('writes one line break where blocks meet, none first, and one where a <br/> stands just before a block', () => {
    expect(narrativeText(div('<h1>Rubrik</h1><ul><li>ett</li><li>två</li></ul>'))).toBe('Rubrik\nett\ntvå');
    expect(narrativeText(div('rad<br/><p>stycke</p>'))).toBe('rad\nstycke');
  });

  it('drops whitespace alone between two block boundaries, and keeps it between inline tags', () => {
    expect(narrativeText(div('<p>a</p>\n    <p>b</p>'))).toBe('a\nb');
    expect(narrativeText(div('<b>fet</b> <i>kursiv</i>'))).toBe('fet kursiv');
    expect(narrativeText(div('<p>a</p> <span>x</span> <p>b</p>'))).toBe('a\n x \nb');
  });

  it('puts a tab before each cell but the first of a row', () => {
    expect(narrativeText(div('<table><tr><th>Prov</th><th>Värde</th></tr><tr><td>CRP</td><td>12</td></tr></table>'))).toBe('Prov\tVärde\nCRP\t12');
  });

  it('keeps line breaks inside character data and CDATA as written, and trims the ends only', () => {
    expect(narrativeText(div('  rad ett\nrad  två <![CDATA[<x> & y]]>  '))).toBe('rad ett\nrad  två <x> & y');
  });

  it.each([
    ['an HTML entity XML does not define', div('a&nbsp;b')],
    ['a tag left open', '<div xmlns="http://www.w3.org/1999/xhtml"><p>a</div>'],
    ['a DTD', '<!DOCTYPE div [<!ENTITY x "y">]><div>&x;</div>'],
    ['text outside any element', 'just text'],
  ])('refuses %s as a bad response', (_, narrative) => {
    expect(() => narrativeText(narrative)).toThrow(EhrError);
    try {
      narrativeText(narrative);
    } catch (err) {
      expect((err as EhrError).failure).toBe('bad-response');
    }
  });
});
