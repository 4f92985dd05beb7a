import { describe, expect, it } from 'vitest';
import { arrayPaths } from './reference/array-paths.js';
import { STR } from '../../../src/adapters/ehr-xml/leaves.js';
import { compile, lazy, many, obj, wrap, type ObjectShape } from '../../../src/adapters/ehr-xml/shape.js';
import { documentParser } from './reference/xml-parser.js';

describe('repeated paths come from the shape, not from element names', () => {
  const shape = obj({
    Patient: obj({ PhoneNumbers: wrap('Phone', obj({ PhoneNumber: STR })) }),
    Summary: obj({ PhoneNumbers: many(obj({ Number: STR })) }),
    '@actor': STR,
  });
  const paths = arrayPaths('Doc', compile(shape));

  it('knows a wrapper from a repeated element of the same name', () => {
    expect(paths.has('Doc.Patient.PhoneNumbers.Phone')).toBe(true);
    expect(paths.has('Doc.Patient.PhoneNumbers')).toBe(false);
    expect(paths.has('Doc.Summary.PhoneNumbers')).toBe(true);
    expect(paths.has('Doc.Other.PhoneNumbers')).toBe(false);
    expect(paths.has('Doc.actor')).toBe(false);
  });
});

describe('a recursive shape repeats without bound', () => {
  const node: ObjectShape = obj({ Name: STR, Tag: many(STR), Node: many(lazy(() => node)) });
  const paths = arrayPaths('Doc', compile(obj({ Wrapper: obj({ Node: many(node) }) })));

  it('recognises repeated elements at any depth and nothing else', () => {
    expect(paths.has('Doc.Wrapper.Node')).toBe(true);
    expect(paths.has('Doc.Wrapper.Node.Node')).toBe(true);
    expect(paths.has(`Doc.Wrapper${'.Node'.repeat(40)}`)).toBe(true);
    expect(paths.has(`Doc.Wrapper${'.Node'.repeat(7)}.Tag`)).toBe(true);
    expect(paths.has(`Doc.Wrapper${'.Node'.repeat(7)}.Name`)).toBe(false);
    expect(paths.has('Doc.Wrapper.Node.NodeX')).toBe(false);
    expect(paths.has('Doc.Wrapper')).toBe(false);
  });
});

describe('the parser applies the repeated paths', () => {
  const shape = compile(obj({
    Patient: obj({ PhoneNumbers: wrap('Phone', obj({ PhoneNumber: STR })) }),
    Summary: obj({ PhoneNumbers: many(obj({ Number: STR })) }),
  }));
  const parser = documentParser('Doc', arrayPaths('Doc', shape));

  it('makes single repeated elements arrays, by path only', () => {
    const tree = parser.parse(
      '<Doc><Patient><PhoneNumbers><Phone><PhoneNumber>0701740605</PhoneNumber></Phone></PhoneNumbers></Patient>'
      + '<Summary><PhoneNumbers><Number>0701740605</Number></PhoneNumbers></Summary><Other><Phone>x</Phone></Other></Doc>',
    );
    expect(tree).toEqual({
      Patient: { PhoneNumbers: { Phone: [{ PhoneNumber: '0701740605' }] } },
      Summary: { PhoneNumbers: [{ Number: '0701740605' }] },
      Other: { Phone: 'x' },
    });
  });
});
