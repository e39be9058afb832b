import { APIError } from 'better-auth/api';
import type { Logger } from 'pino';
import type {
  RequestPasswordResetBody,
  ResetPasswordBody,
  SignInBody,
  SignUpBody,
} from '../../../shared/schemas/auth.js';
import type { RegistrationMode } from '../../../shared/schemas/instance.js';
import type { Me } from '../../../shared/schemas/user.js';
import { signUpContext, type Auth } from '../../auth/auth.js';
import type { SessionIdentity } from '../../auth/session-cache.js';
import type { Config } from '../../config.js';
import { Conflict, DomainError, Forbidden, Invalid } from '../../errors.js';
import type { Mailer } from '../../mail/mailer.js';
import { securityMail, sendNotice } from '../../mail/security-mail.js';
import { describeDevice } from '../account/account.service.js';
import type { UserRecord, UsersRepository } from '../users/users.repository.js';
import type { UsersService } from '../users/users.service.js';
import { passwordProblem } from './password-policy.js';

export interface AuthResult {
  user: Me;
  /** Set-Cookie headers from Better Auth, passed through unchanged. */
  cookies: string[];
}

const invalidCredentials = () =>
  new DomainError(401, 'invalid_credentials', 'That email or username and password do not match.');

const invalidToken = () =>
  new DomainError(
    400,
    'invalid_token',
    'This reset link has expired or was already used. Request a new one.',
  );

function betterAuthCode(error: unknown): string | undefined {
  if (!(error instanceof APIError)) return undefined;
  const body = error.body as { code?: unknown } | undefined;
  return typeof body?.code === 'string' ? body.code : undefined;
}

/** Approval mode (issue: moderation and administration §6): the question asked, and who is told. */
export interface ApprovalHooks {
  /** The instance's sign-up question, or null when it asks none. */
  signupQuestion(): Promise<string | null>;
  /** An account now waits for approval: staff are told, and the console's counts change. */
  pending(uid: string): Promise<void>;
}

const noApprovalHooks: ApprovalHooks = {
  signupQuestion: () => Promise.resolve(null),
  pending: () => Promise.resolve(),
};

/** Sign-up, sign-in, sign-out and password reset, on top of Better Auth (used as a library). */
export class AuthService {
  constructor(
    private readonly auth: Auth,
    private readonly config: Config,
    private readonly repository: UsersRepository,
    private readonly users: UsersService,
    private readonly mailer: Mailer,
    private readonly log: Logger,
    /** The registration mode in effect: an administrator's choice, else `REGISTRATION_MODE` (ADR 0023). */
    private readonly registrationMode: () => Promise<RegistrationMode> = () =>
      Promise.resolve(config.registrationMode),
    private readonly approval: ApprovalHooks = noApprovalHooks,
  ) {}

  /** Parsed input (the route validated it with the shared schema). */
  async signUp(input: SignUpBody, headers: Headers): Promise<AuthResult> {
    const mode = await this.registrationMode();
    if (mode === 'closed') {
      throw new Forbidden('Registration is closed on this instance.', 'registration_closed');
    }
    const { email, username, password, firstName, lastName } = input;
    // Approval mode asks the instance's question, and the answer is required.
    const question = mode === 'approval' ? await this.approval.signupQuestion() : null;
    const signupAnswer = question ? (input.signupAnswer ?? '').trim() : '';
    if (question && !signupAnswer) {
      throw new Invalid('Answer the question so the moderators can approve you.', {
        signupAnswer: 'Answer the question.',
      });
    }
    const weak = passwordProblem(password, { email, username });
    if (weak) throw new Invalid('Choose a stronger password.', { password: weak });
    await this.assertAvailable(email, username);

    try {
      // The mode goes to the user-creation hook, which must not read settings inside its transaction.
      const { headers: responseHeaders, response } = await signUpContext.run(
        { registrationMode: mode },
        () =>
          this.auth.api.signUpEmail({
            body: {
              email,
              password,
              username,
              firstName,
              lastName,
              name: `${firstName} ${lastName}`,
              ...(signupAnswer ? { signupAnswer } : {}),
            },
            headers,
            returnHeaders: true,
          }),
      );
      // One read serves the answer and the new user's document, which is sent without reading it again.
      const row = await this.record(response.user.id);
      await this.users.publishDocument(row.id, this.users.presenter.user(row));
      if (row.awaitingApproval) {
        await this.approval.pending(row.id).catch((error: unknown) => {
          this.log.warn({ err: error }, 'could not tell the moderators about a pending sign-up');
        });
      }
      return { user: this.users.presenter.me(row), cookies: responseHeaders.getSetCookie() };
    } catch (error) {
      // Two sign-ups racing for the same name or address: the unique index decides; report it as such.
      if (error instanceof DomainError) throw error;
      await this.assertAvailable(email, username);
      throw error;
    }
  }

  async signIn(input: SignInBody, headers: Headers): Promise<AuthResult> {
    const { identifier, password } = input;
    try {
      const { headers: responseHeaders, response } = identifier.includes('@')
        ? await this.auth.api.signInEmail({
            body: { email: identifier.toLowerCase(), password },
            headers,
            returnHeaders: true,
          })
        : await this.auth.api.signInUsername({
            body: { username: identifier.toLowerCase(), password },
            headers,
            returnHeaders: true,
          });
      return { user: await this.me(response.user.id), cookies: responseHeaders.getSetCookie() };
    } catch (error) {
      if (error instanceof APIError && error.statusCode < 500) throw invalidCredentials();
      throw error;
    }
  }

  async signOut(headers: Headers): Promise<string[]> {
    try {
      const { headers: responseHeaders } = await this.auth.api.signOut({
        headers,
        returnHeaders: true,
      });
      return responseHeaders.getSetCookie();
    } catch (error) {
      // Signing out without a (valid) session is already done.
      if (error instanceof APIError && error.statusCode < 500) return [];
      throw error;
    }
  }

  /** The signed-in account, the session it uses and when that expires, or null. */
  async sessionIdentity(headers: Headers): Promise<SessionIdentity | null> {
    const session = await this.auth.api.getSession({ headers });
    if (!session) return null;
    const { id, expiresAt } = session.session;
    return { uid: session.user.id, sessionId: id, expiresAt: new Date(expiresAt) };
  }

  /** Who is signed in; the cookies carry a session whose expiry Better Auth has just rolled forward. */
  async session(headers: Headers): Promise<{ user: Me | null; cookies: string[] }> {
    const { headers: responseHeaders, response } = await this.auth.api.getSession({
      headers,
      returnHeaders: true,
    });
    const cookies = responseHeaders.getSetCookie();
    if (!response) return { user: null, cookies };
    const row = await this.repository.findById(response.user.id);
    return { user: row ? this.users.presenter.me(row) : null, cookies };
  }

  /** Answers the same whether or not the address has an account (no account discovery). */
  async requestPasswordReset(input: RequestPasswordResetBody): Promise<void> {
    await this.auth.api.requestPasswordReset({ body: { email: input.email } });
  }

  /** Sets a new password from a mailed link, then tells the account's address (issue: security mail). */
  async resetPassword(input: ResetPasswordBody, headers: Headers): Promise<void> {
    const weak = passwordProblem(input.newPassword);
    if (weak) throw new Invalid('Choose a stronger password.', { newPassword: weak });
    // Better Auth answers a reset with no user: the token's record names it, read before the reset uses it
    // up, and so is the account, so nothing can fail between the saved reset and its notice.
    const context = await this.auth.$context;
    const pending = await context.internalAdapter.findVerificationValue(
      `reset-password:${input.token}`,
    );
    const user = pending ? await this.repository.findById(pending.value) : undefined;
    try {
      await this.auth.api.resetPassword({
        body: { token: input.token, newPassword: input.newPassword },
      });
    } catch (error) {
      const code = betterAuthCode(error);
      if (code === 'INVALID_TOKEN' || (error instanceof APIError && error.statusCode < 500)) {
        throw invalidToken();
      }
      throw error;
    }
    if (!user) return;
    const device = describeDevice(headers.get('user-agent'));
    sendNotice(
      this.mailer,
      this.log,
      securityMail(this.config, user, { kind: 'password-reset' }, { at: new Date(), device }),
    );
  }

  private async me(uid: string): Promise<Me> {
    return this.users.presenter.me(await this.record(uid));
  }

  private async record(uid: string): Promise<UserRecord> {
    const row = await this.repository.findById(uid);
    if (!row) throw new Error(`user ${uid} vanished right after authentication`);
    return row;
  }

  private async assertAvailable(email: string, username: string): Promise<void> {
    const [byEmail, byUsername] = await Promise.all([
      this.repository.findByEmail(email),
      this.repository.isUsernameHeld(username),
    ]);
    const fields: Record<string, string> = {};
    if (byEmail) {
      fields.email = 'An account already uses this email address. Sign in, or reset your password.';
    }
    if (byUsername) fields.username = 'That username is taken. Please choose another.';
    if (Object.keys(fields).length > 0)
      throw new Conflict('Some details are already in use.', fields);
  }
}
