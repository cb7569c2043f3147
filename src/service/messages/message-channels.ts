import type { Logger } from '../../base/log/index.js';
import { safeUrl } from '../../base/util/index.js';
import type { DeliveryConfig } from './delivery-config.js';
import { eboksChannel } from './eboks-channel.js';
import { emlFileChannel } from './eml-file-channel.js';
import type { MessageChannels } from './message.js';
import { smsChannel } from './sms-channel.js';
import { smtpChannel } from './smtp-channel.js';

/**
 * The channels of an installation: e-mail over SMTP or into .eml files, SMS through the gateway
 * when configured, e-Boks not configured. Made once per process; close() ends the SMTP pool.
 */
export function messageChannels(config: DeliveryConfig, logger: Logger): MessageChannels {
  const email =
    config.email.kind === 'smtp'
      ? smtpChannel({ ...config, email: config.email }, logger)
      : emlFileChannel({ ...config, email: config.email }, logger);
  const sms = smsChannel(config, logger);
  const eboks = eboksChannel();
  logger.info(
    {
      email:
        config.email.kind === 'smtp'
          ? { smtp: safeUrl(config.email.url), dkim: config.dkim?.domainName ?? false }
          : { dir: config.email.dir },
      sms: config.sms ? safeUrl(config.sms.url) : false,
    },
    'message channels',
  );
  return {
    email,
    sms,
    eboks,
    async close() {
      await Promise.all([email.close(), sms.close(), eboks.close()]);
    },
  };
}
