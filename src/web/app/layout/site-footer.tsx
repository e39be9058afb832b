import { Link } from 'react-router';
import { useInstance, useInstanceName } from '@web/features/instance/api/get-instance.js';

/** spec §2 footer: Terms of Service, Privacy Policy, a Contact mail link and the copyright line. */
export function SiteFooter() {
  const contactEmail = useInstance().data?.contactEmail ?? null;
  const name = useInstanceName();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav aria-label="Site">
          <ul className="site-footer__links">
            <li>
              <Link to="/tos">Terms of Service</Link>
            </li>
            <li>
              <Link to="/privacy">Privacy Policy</Link>
            </li>
            {contactEmail ? (
              <li>
                <a href={`mailto:${contactEmail}`}>Contact</a>
              </li>
            ) : null}
          </ul>
        </nav>
        <p className="site-footer__copyright">
          © {year} {name}
        </p>
      </div>
    </footer>
  );
}
