/**
 * The default Terms of Service and Privacy Policy. `{{instance}}`, `{{contact}}` and `{{url}}` are filled in;
 * an operator replaces either document with `tos.md` or `privacy.md` in DATA_DIR.
 */
export const legalTemplates = {
  tos: {
    title: 'Terms of Service',
    markdown: `# Terms of Service

These terms apply to everyone who uses **{{instance}}** at {{url}}. {{instance}} is a community run on
Hearth, self-hosted software, by the people who operate this server (“we”). By creating an account or
using the site you agree to these terms.

## Your account

- You must give a working email address and keep your password safe. You are responsible for what
  happens under your account.
- One person, one account, unless the moderators agree otherwise. Don't impersonate anyone.
- Usernames that mislead, harass or squat on someone else's name may be changed or removed.
- New accounts may need an administrator's approval before they can post. Until then you can browse.

## What you post

- You keep the rights to what you post. You give {{instance}} permission to store, display and
  distribute it to other users as the service requires, for as long as it stays on the site.
- Only post what you have the right to share. Describe images with alt text where you can, so
  everyone can enjoy them.
- Public posts and your profile can be seen by anyone, including people who are not signed in and
  search engines.

## Community rules

Be kind, and disagree with ideas rather than people. The following are not allowed:

1. Harassment, threats, hate speech, or content that targets people for who they are.
2. Illegal content, including sexual content involving minors, which we report to the authorities.
3. Spam, scams, malware, and automated activity that burdens the service or other members.
4. Sharing other people's private information without their consent.
5. Attempts to break, probe or overload the service, or to get around its limits.

## Moderation

Administrators may remove content, limit or deactivate accounts that break these terms, and will
explain why where it is safe to do so. If you think a decision is wrong, write to {{contact}}.

## The service

{{instance}} is provided as it is, by volunteers or a small team, without any warranty. We may change
or end the service; where we can, we will give notice so you can take a copy of your data first. We
are not liable for losses that come from using the service, as far as the law allows.

## Changes

We may update these terms. Significant changes will be announced on the site before they take
effect. If you keep using {{instance}} after that, the new terms apply.

## Contact

Questions about these terms: {{contact}}.
`,
  },
  privacy: {
    title: 'Privacy Policy',
    markdown: `# Privacy Policy

This policy explains what **{{instance}}** ({{url}}) stores about you, why, and what you can do about
it. {{instance}} runs on Hearth, self-hosted software: your data lives on servers chosen by this
community's operators and is not sold or shared with advertisers.

## What we store

- **Account details:** your email address, username, first and last name, and a secure hash of your
  password (never the password itself). Your email address is never shown to other users.
- **Profile:** anything you add to your public profile, such as a display name, bio and images.
- **Content:** what you post, and your interactions such as likes, comments and follows.
- **Sessions:** when you sign in we keep a session record with the date, your IP address and your
  browser's user-agent, so you can see and end your sessions and so we can stop abuse.
- **Server logs:** requests are logged briefly for security and troubleshooting.

## Why

We use this data only to run the service: to sign you in, show your profile and posts, send the
emails you ask for (such as password resets), keep the community safe, and enforce our
[Terms of Service](/tos).

## Cookies

We use one essential cookie to keep you signed in. There are no advertising or tracking cookies and
no third-party analytics.

## Who can see what

Your profile and public posts can be seen by anyone. Administrators of {{instance}} can see account
details when moderating or when you ask for help. We share data with others only when the law
requires it.

## Email

We send email only for your account: password resets and, when you change it, confirmation of a new
address. Mail may pass through the operator's mail provider.

## How long

We keep your data while your account exists. When you delete your account, your profile, posts and
sessions are removed; backups roll over within a few weeks. Your username stays reserved for a while
so nobody can impersonate you.

## Your rights

You can see and correct your profile at any time, and delete your account. To get a copy of your
data, or for any other privacy request, write to {{contact}}. Where data-protection law such as the
GDPR applies, you have the rights it gives you, including to complain to your supervisory authority.

## Changes

We will announce significant changes to this policy on the site before they take effect.
`,
  },
} as const;

export type LegalDocumentName = keyof typeof legalTemplates;
