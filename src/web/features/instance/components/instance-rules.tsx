import { Link } from 'react-router';
import { useRules } from '../api/rules.js';
import { RulesList } from './rules-list.js';

/**
 * "By signing up you agree to the rules", with the rules, at sign-up (issue: moderation and administration
 * §4, "Instance"). Nothing while they load or when the instance has none; a short note when they could not
 * be read, so sign-up is never held up by them.
 */
export function InstanceRules() {
  const rules = useRules();
  if (rules.isPending) return null;
  if (rules.isError) {
    return (
      <p className="instance-rules instance-rules--unavailable muted">
        By signing up you agree to this instance&apos;s <Link to="/about/moderation">rules</Link>.
      </p>
    );
  }
  if (rules.data.rules.length === 0) return null;
  return (
    <section className="instance-rules" aria-labelledby="instance-rules-heading">
      <h2 id="instance-rules-heading" className="instance-rules__heading">
        By signing up you agree to the rules
      </h2>
      <RulesList rules={rules.data.rules} />
      <p className="instance-rules__more">
        <Link to="/about/moderation">How this instance is moderated</Link>
      </p>
    </section>
  );
}
