import { Button, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { errorTitle } from '../../i18n/error-messages';
import { useLanguage, useT } from '../../i18n/use-t';
import { useRefreshStore } from '../../stores/refresh-store';
import { IconRefresh } from '../icons';
import { shortTime } from './short-time';

/**
 * "Refresh statuses" with what the refresh is doing: its progress while it runs (this window's or a
 * scheduled one), then when it ended, what it found and when the next scheduled one is due.
 */
export function RefreshControl() {
  const t = useT();
  const language = useLanguage();
  const { last, progress, requested, result, error, refreshNow, nextTestChange } = useRefreshStore();
  const running = requested || progress !== undefined || last?.running === true;
  const lastLine = last?.at ? t('activity.refresh.last', { time: shortTime(last.at, language) }) : t('activity.refresh.never');
  const nextLine = last?.nextAt ? t('activity.refresh.next', { time: shortTime(last.nextAt, language) }) : undefined;
  const found = result ?? last?.result ?? undefined;
  const foundLine = found
    ? found.failed > 0
      ? t('activity.refresh.resultFailed', { checked: found.checked, changed: found.changed, failed: found.failed })
      : t('activity.refresh.result', { checked: found.checked, changed: found.changed })
    : undefined;
  const problem = error ? errorTitle(error, t) : last?.error ? t('activity.refresh.lastError', { error: last.error }) : undefined;
  const testLine = nextTestChange ? t('activity.refresh.nextTestChangeShort', { time: shortTime(nextTestChange.at, language) }) : undefined;
  const details = [lastLine, foundLine, nextLine, testLine, problem].filter(Boolean).join(' · ');

  return (
    <Group gap="xs" wrap="nowrap" data-testid="refresh-control" data-state={running ? 'running' : 'idle'}>
      {/* A native hint: the button is disabled while it runs, and a Mantine tooltip would then miss the mouse leaving. */}
      <Button
        size="xs"
        variant="default"
        leftSection={<IconRefresh size={15} />}
        loading={requested}
        onClick={() => void refreshNow()}
        title={t('activity.refresh.nowHint')}
        data-testid="refresh-now"
      >
        {t('activity.refresh.now')}
      </Button>
      <Tooltip label={details} openDelay={300} withArrow multiline maw={320}>
        <Stack gap={2} w={210} visibleFrom="lg" role="status" aria-live="polite" data-testid="refresh-status">
          {running ? (
            <>
              <Text fz={11} c="dimmed" lh={1.2} className="sd-ellipsis" data-testid="refresh-progress-text">
                {progress ? t('activity.refresh.running', { done: progress.done, total: progress.total }) : t('activity.refresh.starting')}
              </Text>
              <Progress
                size="sm"
                value={progress && progress.total > 0 ? (progress.done / progress.total) * 100 : 0}
                animated
                striped
                aria-label={t('activity.refresh.progress')}
                data-testid="refresh-progress"
              />
            </>
          ) : (
            <>
              <Text fz={11} lh={1.2} className="sd-ellipsis" c={problem ? 'red' : undefined} data-testid="refresh-last">
                {lastLine}
              </Text>
              <Text fz={11} c="dimmed" lh={1.2} className="sd-ellipsis" data-testid="refresh-found">
                {problem ?? foundLine ?? nextLine ?? ''}
              </Text>
            </>
          )}
        </Stack>
      </Tooltip>
    </Group>
  );
}
