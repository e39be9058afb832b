// The document fixtures live in src/shared/test, where shared tests can reach them too (the web may import
// shared code, never the reverse); web tests keep importing them from here.
export {
  makeNotificationGroup,
  makeNotificationPage,
  makeNotificationSettings,
  makeUnreadState,
  makeUnsubscribeState,
} from '@shared/test/notification-fixtures.js';
