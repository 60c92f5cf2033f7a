import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  gerund,
  isPeopleGroup,
  isPluralPhrase,
  pluralize,
  titleCase,
  verbForm,
  withArticle,
} from './english.ts';

describe('gerund', () => {
  const cases: Array<[string, string]> = [
    ['write', 'writing'],
    ['run', 'running'],
    ['stop', 'stopping'],
    ['open', 'opening'],
    ['begin', 'beginning'],
    ['die', 'dying'],
    ['see', 'seeing'],
    ['fix', 'fixing'],
    ['visit', 'visiting'],
    ['save', 'saving'],
  ];
  for (const [verb, ing] of cases) test(verb, () => assert.equal(gerund(verb), ing));
});

describe('withArticle', () => {
  const cases: Array<[string, string]> = [
    ['app', 'an app'],
    ['user guide', 'a user guide'],
    ['SEO tool', 'an SEO tool'],
    ['hour', 'an hour'],
    ['one-page plan', 'a one-page plan'],
    ['8-week plan', 'an 8-week plan'],
    ['project-management app', 'a project-management app'],
  ];
  for (const [phrase, out] of cases) test(phrase, () => assert.equal(withArticle(phrase), out));
});

describe('isPluralPhrase', () => {
  const cases: Array<[string, boolean]> = [
    ['compound interest', false],
    ['remote teams', true],
    ['the benefits of cold showers', true],
    ['sleep', false],
    ['Taskly', false],
    ['news', false],
    ['writing a resume', false],
    ['interest rates', true],
    ['physics', false],
  ];
  for (const [phrase, plural] of cases) test(phrase, () => assert.equal(isPluralPhrase(phrase), plural));
});

test('pluralize', () => {
  assert.equal(pluralize('project-management app'), 'project-management apps');
  assert.equal(pluralize('budget strategy'), 'budget strategies');
  assert.equal(pluralize('coffee brush'), 'coffee brushes');
});

test('isPeopleGroup', () => {
  assert.equal(isPeopleGroup('remote teams'), true);
  assert.equal(isPeopleGroup('busy founders'), true);
  assert.equal(isPeopleGroup('better sleep'), false);
});

test('verbForm knows regular and irregular forms', () => {
  assert.deepEqual(verbForm('grows'), { base: 'grow', form: 'third' });
  assert.deepEqual(verbForm('built'), { base: 'build', form: 'past' });
  assert.equal(verbForm('savings'), undefined);
});

describe('titleCase', () => {
  const cases: Array<[string, string]> = [
    ['how compound interest grows savings', 'How Compound Interest Grows Savings'],
    ['why sleep matters for athletes', 'Why Sleep Matters for Athletes'],
    ['how AI is changing healthcare', 'How AI Is Changing Healthcare'],
    [
      'Taskly: the project-management app for remote teams',
      'Taskly: The Project-Management App for Remote Teams',
    ],
    ['new iPhone 16 on sale at example.com', 'New iPhone 16 on Sale at example.com'],
  ];
  for (const [input, out] of cases) test(input, () => assert.equal(titleCase(input), out));
});
