import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { limits, requestTimeouts, shutdownTimeouts } from '../shared/limits.js';
import { createAuth, scopeAuthContexts } from './auth/auth.js';
import { SessionCache } from './auth/session-cache.js';
import { StandingReader } from './auth/standing.js';
import { fastifyTrustProxy, type Config } from './config.js';
import { openDatabase } from './db/database.js';
import { reachabilityProbe } from './db/unreachable.js';
import { migrateToLatest } from './db/migrator.js';
import { InvalidatingBus, ReadCache } from './cache/read-cache.js';
import { LocalEventBus, type EventBus } from './events/bus.js';
import { listenForLocalEvents } from './events/local-socket.js';
import { failFastRedisOptions, RedisEventBus } from './events/redis-bus.js';
import { actionMail, createMailer, type Mailer } from './mail/mailer.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { instanceRoutes } from './modules/instance/instance.routes.js';
import { InstanceService } from './modules/instance/instance.service.js';
import { instanceAdminRoutes } from './modules/instance/instance-admin.routes.js';
import { InstanceAdminService } from './modules/instance/instance-admin.service.js';
import { InstanceRulesRepository } from './modules/instance/instance-rules.repository.js';
import { InstanceSettingsRepository } from './modules/instance/instance-settings.repository.js';
import { InstanceSettingsService } from './modules/instance/instance-settings.service.js';
import { AuditLogReaderRepository } from './modules/moderation/audit-log.reader.repository.js';
import { AuditLogRepository } from './modules/moderation/audit-log.repository.js';
import { auditLogRoutes } from './modules/moderation/audit-log.routes.js';
import { AuditLogService } from './modules/moderation/audit-log.service.js';
import { ModerationRepository } from './modules/moderation/moderation.repository.js';
import { moderationRoutes } from './modules/moderation/moderation.routes.js';
import { ModerationService } from './modules/moderation/moderation.service.js';
import { adminUsersRoutes } from './modules/admin-users/admin-users.routes.js';
import { AdminUsersRepository } from './modules/admin-users/admin-users.repository.js';
import { UsersAdminService } from './modules/admin-users/admin-users.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { postsRoutes } from './modules/posts/posts.routes.js';
import { PostPresenter } from './modules/posts/posts.presenter.js';
import { PostsRepository } from './modules/posts/posts.repository.js';
import { PostsService } from './modules/posts/posts.service.js';
import { commentsRoutes } from './modules/comments/comments.routes.js';
import { CommentPresenter } from './modules/comments/comments.presenter.js';
import { CommentsRepository } from './modules/comments/comments.repository.js';
import { CommentsService } from './modules/comments/comments.service.js';
import { followsRoutes } from './modules/follows/follows.routes.js';
import { relationshipsRoutes } from './modules/relationships/relationships.routes.js';
import { RelationshipsRepository } from './modules/relationships/relationships.repository.js';
import { RelationshipsService } from './modules/relationships/relationships.service.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { DashboardRepository } from './modules/dashboard/dashboard.repository.js';
import { ActivityTracker, DashboardService } from './modules/dashboard/dashboard.service.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { NotificationPresenter } from './modules/notifications/notifications.presenter.js';
import { NotificationsRepository } from './modules/notifications/notifications.repository.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { FollowsRepository } from './modules/follows/follows.repository.js';
import { FollowsService } from './modules/follows/follows.service.js';
import { profilesRoutes } from './modules/profiles/profiles.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { SearchBacklog } from './modules/search/search-backlog.js';
import { SearchBacklogRepository } from './modules/search/search-backlog.repository.js';
import { createSearchRepository } from './modules/search/search.repository.js';
import { SearchService } from './modules/search/search.service.js';
import { ProfilesRepository } from './modules/profiles/profiles.repository.js';
import { ProfilesService } from './modules/profiles/profiles.service.js';
import { mediaPlugin } from './plugins/media.js';
import { apiDocsPlugin } from './plugins/api-docs.js';
import { PageMetaService } from './modules/pages/page-meta.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { AccountRepository } from './modules/account/account.repository.js';
import { AccountService } from './modules/account/account.service.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { UserPresenter } from './modules/users/users.presenter.js';
import { createStorage } from './media/storage.js';
import { PendingUploadsRepository } from './media/pending-uploads.repository.js';
import { MediaUploads } from './media/stored-image.js';
import { handlersInFlight } from './http/in-flight.js';
import { rateClassChecks } from './http/rate-classes.js';
import { responseSerializerCompiler } from './http/serializer.js';
import { requestLogSerializer } from './log-redaction.js';
import { compressionPlugin } from './plugins/compression.js';
import { clientErrorHandler, errorsPlugin, frameworkErrorHandler } from './plugins/errors.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { requestBodyPlugin } from './plugins/request-body.js';
import { realtimePlugin, topicLoaders } from './plugins/realtime.js';
import { securityPlugin } from './plugins/security.js';
import { textInputPlugin } from './plugins/text-input.js';
import { viewerPlugin } from './plugins/viewer.js';
import { webPlugin } from './plugins/web.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The application's services, for operator tooling and tests that act as an operator would. */
    services: {
      users: UsersService;
      auth: AuthService;
      profiles: ProfilesService;
      account: AccountService;
      posts: PostsService;
      comments: CommentsService;
      follows: FollowsService;
      relationships: RelationshipsService;
      notifications: NotificationsService;
      /** The instance's settings as administrators set them (ADR 0023). */
      instanceSettings: InstanceSettingsService;
      dashboard: DashboardService;
      /** The console's actions on accounts, for the command line's tests. */
      usersAdmin: UsersAdminService;
      /** Reports, removals, warnings, suspensions and appeals (ADR 0021). */
      moderation: ModerationService;
    };
  }
}

export interface AppOverrides {
  /** Replaces the mailer (tests capture messages). */
  mailer?: Mailer;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** Shorter request deadlines, so tests can show a slow client being cut. */
  timeouts?: Partial<Record<keyof typeof requestTimeouts, number>>;
}

/** Builds the whole application as a Fastify instance. It never listens (fastify/demo, STYLE.md). */
export async function buildApp(
  config: Config,
  overrides: AppOverrides = {},
): Promise<FastifyInstance> {
  const timeouts = { ...requestTimeouts, ...overrides.timeouts };
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      serializers: { req: requestLogSerializer },
      ...(overrides.logStream ? { stream: overrides.logStream } : {}),
    },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: limits.jsonBodyBytes,
    routerOptions: { maxParamLength: 256 },
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // Node's deadlines (DESIGN.md "Bounded by default"): headers, then the whole request, uploads
    // included; JSON bodies get a shorter one from the request-body plugin.
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
  });
  // JSON only: anything else is a 415 with a clear message (uploads register their own parser).
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  // Responses go out through fast-json-stringify, compiled from the contract at start (ADR 0027).
  app.setSerializerCompiler(responseSerializerCompiler());
  const log = app.log as unknown as Logger;

  const database = openDatabase({ ...config, checkpointLog: log });
  const closers: (() => Promise<void> | void)[] = [() => database.close()];
  const running = handlersInFlight(app);
  app.addHook('onClose', async () => {
    // A handler whose client went away still runs: it finishes before what it uses is closed.
    if (!(await running.settled(shutdownTimeouts.drainMs))) {
      log.warn({ running: running.running }, 'shutdown: closing with handlers still running');
    }
    for (const close of closers.reverse()) await close();
  });

  try {
    const { applied } = await migrateToLatest(database.db);
    if (applied.length > 0) log.info({ applied }, `database migrated (${database.describe})`);

    let redis: Redis | undefined;
    let bus: EventBus;
    if (config.redisUrl) {
      // Fail fast: a Redis outage must not hold requests (rate limits fall back to this process).
      redis = new Redis(config.redisUrl, failFastRedisOptions);
      const client = redis;
      client.on('error', (error: Error) => log.warn({ err: error }, 'redis connection error'));
      closers.push(async () => {
        await client.quit().catch(() => undefined);
        client.disconnect();
      });
      bus = await RedisEventBus.connect(config.redisUrl, config.redisPrefix, log);
    } else {
      const local = new LocalEventBus();
      closers.push(await listenForLocalEvents(local, config.dataDir, log));
      bus = local;
    }
    // Public documents kept in memory, dropped by the bus's events; this instance's own writes drop theirs
    // as they publish (ADR 0028).
    const readCache = new ReadCache(bus, config.readCache);
    closers.push(() => readCache.close());
    const eventBus: EventBus = new InvalidatingBus(bus, readCache);
    closers.push(() => eventBus.close());

    const storage = await createStorage(config);
    const uploads = new MediaUploads(storage, new PendingUploadsRepository(database.db), log);
    // Makes the media folder owner-only and deletes what uploads killed mid-request left (ADR 0009).
    await uploads.start();
    closers.push(() => uploads.close());
    const mailer = overrides.mailer ?? createMailer(config, log);
    closers.push(() => mailer.close());

    const sessions = new SessionCache(eventBus, log);
    closers.push(() => sessions.close());
    // The registration mode an administrator chose, read by sign-up (ADR 0023).
    const instanceSettings = new InstanceSettingsService(
      new InstanceSettingsRepository(database.db),
      config,
    );
    await scopeAuthContexts();
    const auth = createAuth({
      config,
      db: database.db,
      dialect: database.dialect,
      hooks: {
        sessionEnded: (session) =>
          sessions.sessionsEnded({ uid: session.userId, sessionIds: [session.id] }),
        sendPasswordReset: (user, token) => {
          const url = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
          const body = actionMail({
            instanceName: config.instanceName,
            greeting: `Hello ${user.name},`,
            lines: [
              `Someone asked to reset the password of your ${config.instanceName} account.`,
              'The link below works once, for one hour.',
            ],
            actionLabel: 'Choose a new password',
            actionUrl: url,
            footer: "If you didn't ask for this, ignore this email: your password stays the same.",
          });
          // Not awaited: the answer must not reveal, by its timing, whether the address has an account.
          mailer
            .send({
              to: user.email,
              subject: `Reset your ${config.instanceName} password`,
              ...body,
              link: url,
            })
            .catch((error: unknown) =>
              log.error({ err: error }, 'could not send the password-reset mail'),
            );
          return Promise.resolve();
        },
      },
    });

    const usersRepository = new UsersRepository(database.db);
    const users = new UsersService(
      usersRepository,
      eventBus,
      new UserPresenter((key) => storage.url(key)),
      readCache,
    );
    const authService = new AuthService(
      auth,
      config,
      usersRepository,
      users,
      mailer,
      log,
      async () => (await instanceSettings.current()).registrationMode,
      {
        signupQuestion: async () => (await instanceSettings.current()).signupQuestion,
        pending: (uid) => usersAdmin.signupPending(uid),
      },
    );
    const instance = new InstanceService(config, instanceSettings);
    const profiles = new ProfilesService(
      new ProfilesRepository(database.db),
      usersRepository,
      users,
      uploads,
    );
    const notifications = new NotificationsService(
      new NotificationsRepository(database.db),
      new NotificationPresenter((key) => storage.url(key)),
      eventBus,
      mailer,
      config,
      (key) => storage.url(key),
      log,
    );
    // Daily digests and the pruning of old notifications (ADR 0017).
    notifications.start();
    closers.push(() => notifications.close());
    // Block and mute (ADR 0022): every module that lists or acts on others' content asks it.
    const relationships = new RelationshipsService(
      new RelationshipsRepository(database.db),
      users,
      eventBus,
      (key) => storage.url(key),
      notifications,
      log,
    );
    relationships.start();
    closers.push(() => relationships.close());
    const posts = new PostsService(
      new PostsRepository(database.db),
      new PostPresenter((key) => storage.url(key)),
      users,
      eventBus,
      uploads,
      log,
      notifications,
      relationships,
      readCache,
    );
    const accountRepository = new AccountRepository(database.db);
    const account = new AccountService(
      auth,
      config,
      accountRepository,
      usersRepository,
      users,
      posts,
      storage,
      mailer,
      log,
      sessions,
      notifications,
    );
    const comments = new CommentsService(
      new CommentsRepository(database.db),
      new CommentPresenter((key) => storage.url(key)),
      posts,
      notifications,
      relationships,
      readCache,
    );
    const follows = new FollowsService(
      new FollowsRepository(database.db),
      users,
      (key) => storage.url(key),
      notifications,
      relationships,
    );
    // Every moderator and administrator action is written through this one log (ADR 0021).
    const auditLogRepository = new AuditLogRepository(database.db);
    const moderation = new ModerationService({
      repository: new ModerationRepository(database.db, auditLogRepository),
      notifications,
      bus: eventBus,
      mailer,
      log,
      config,
      mediaUrl: (key) => storage.url(key),
      publishUser: (uid) => users.publish(uid),
      publishPost: (postId) => posts.publishMany([postId], { feed: true }),
    });
    // Republishes accounts whose suspension lapsed, so their open pages learn (ADR 0021).
    moderation.start();
    closers.push(() => moderation.close());
    const dashboardRepository = new DashboardRepository(database.db, database.dialect);
    const dashboard = new DashboardService(dashboardRepository, log);
    const usersAdmin = new UsersAdminService({
      repository: new AdminUsersRepository(database.db, auditLogRepository),
      publishUser: (uid) => users.publish(uid),
      sessionsEnded: (ended) => sessions.sessionsEnded(ended),
      deleteAccount: (uid) => account.removeAccount(uid),
      sendResetLink: async (email) => {
        await auth.api.requestPasswordReset({ body: { email } });
      },
      mailer,
      log,
      config,
      mediaUrl: (key) => storage.url(key),
      // Sign-ups waiting for approval show in the console's live counts and staff's notifications.
      approvalsChanged: () => moderation.publishState(),
      notifyStaff: (uid) => moderation.signupPending(uid),
    });
    app.decorate('services', {
      moderation,
      usersAdmin,
      users,
      instanceSettings,
      auth: authService,
      profiles,
      account,
      posts,
      comments,
      follows,
      relationships,
      notifications,
      dashboard,
    });

    const databaseReachable = reachabilityProbe(database.db);
    const standing = new StandingReader(database.db);
    await app.register(errorsPlugin, {
      ...(database.dialect === 'postgres' ? { databaseReachable } : {}),
      accountDeleted: async (request) => {
        const viewer = await request.viewer();
        return viewer !== null && (await standing.findStanding(viewer.uid)) === undefined;
      },
    });
    await app.register(securityPlugin, { config, mediaOrigin: storage.externalOrigin });
    await app.register(compressionPlugin);
    await app.register(requestBodyPlugin, { jsonBodyMs: timeouts.jsonBodyMs });
    await app.register(textInputPlugin);
    await app.register(rateLimitPlugin, {
      redis,
      prefix: config.redisPrefix,
      enabled: config.rateLimits,
    });
    await app.register(viewerPlugin, {
      auth: authService,
      users: standing,
      sessions,
      sessionCookie: (await auth.$context).authCookies.sessionToken.name,
      activity: new ActivityTracker(dashboardRepository, log),
    });
    app.decorate('rateClasses', rateClassChecks(app, usersRepository, config.signUpLimits));
    await app.register(realtimePlugin, {
      config,
      bus: eventBus,
      loaders: topicLoaders({ users, posts, notifications, relationships, moderation }),
      liveSessions: (ids) => accountRepository.liveSessionIds(ids),
    });
    await app.register(instanceRoutes, {
      instance,
      databaseReachable,
      redis,
      bus: eventBus,
    });
    await app.register(authRoutes, { auth: authService });
    await app.register(usersRoutes, { users });
    await app.register(profilesRoutes, { profiles });
    await app.register(accountRoutes, { account });
    await app.register(postsRoutes, { posts });
    await app.register(commentsRoutes, { comments });
    await app.register(followsRoutes, { follows });
    await app.register(relationshipsRoutes, { relationships });
    await app.register(instanceAdminRoutes, {
      instanceAdmin: new InstanceAdminService(
        instanceSettings,
        new InstanceRulesRepository(database.db, auditLogRepository),
        auditLogRepository,
        (uid) => users.findDocument(uid),
      ),
    });
    await app.register(auditLogRoutes, {
      auditLog: new AuditLogService(new AuditLogReaderRepository(database.db), instanceSettings),
    });
    await app.register(dashboardRoutes, { dashboard });
    await app.register(adminUsersRoutes, { usersAdmin });
    await app.register(moderationRoutes, { moderation });
    // SQLite indexes new posts for search in batches, PostgreSQL in each post's own row (ADR 0030).
    const searchBacklog = new SearchBacklog(
      new SearchBacklogRepository(database.db),
      database.dialect,
      log,
    );
    searchBacklog.start();
    closers.push(() => searchBacklog.close());
    await app.register(searchRoutes, {
      search: new SearchService(
        createSearchRepository(database.db, database.dialect, searchBacklog),
        posts,
        (key) => storage.url(key),
      ),
    });
    await app.register(notificationsRoutes, { notifications });
    await app.register(apiDocsPlugin, {
      instanceName: config.instanceName,
      sessionCookie: (await auth.$context).authCookies.sessionToken.name,
    });
    await app.register(mediaPlugin, { storage });
    await app.register(webPlugin, {
      webDir: config.webDir,
      pages: new PageMetaService(users, posts, config),
      siteName: config.instanceName,
    });
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
