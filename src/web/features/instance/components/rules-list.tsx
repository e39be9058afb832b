import type { InstanceRule } from '@shared/schemas/instance.js';

/** The instance's rules, numbered, each with its explanation under it. */
export function RulesList({ rules }: { rules: readonly InstanceRule[] }) {
  return (
    <ol className="rules-list">
      {rules.map((rule) => (
        <li key={rule.id} className="rules-list__item">
          <span className="rules-list__text">{rule.text}</span>
          {rule.description ? (
            <span className="rules-list__description">{rule.description}</span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
